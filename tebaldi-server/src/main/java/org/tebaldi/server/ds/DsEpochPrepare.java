package org.tebaldi.server.ds;

import java.util.List;
import org.tebaldi.server.epoch.EpochMessages;

/**
 * A data server's answer to a commit epoch's {@link EpochMessages.Prepare} (COCO, Lu et al. VLDB 2021, §3; docs/
 * mechanisms.md, "Epoch-based commit"). The server holds its prepared-write records until the coordinators' commit
 * or abort messages, so it is prepared unless it is recovering from its log; once every coordinator's share of the
 * epoch arrived ({@link DsEpochs}) the answer waits for every feature's "before epoch prepared" point
 * ({@link DsFeature#beforeEpochPrepared}) — group durability's sync of the epoch's log records
 * ({@link DsDurability#syncForEpoch}), the backups' acknowledgements under replication ({@link DsReplication}). A
 * server that starts recovering while it waits answers no. Data server thread only.
 */
final class DsEpochPrepare {
    private final DataServer ds;

    DsEpochPrepare(DataServer ds) {
        this.ds = ds;
    }

    /**
     * Runs {@code then} once every feature is ready for epoch {@code epoch} (at once if this server is recovering:
     * it then answers no anyway). Called by {@link DsEpochs} once the epoch's shares arrived.
     */
    void whenReady(long epoch, Runnable then) {
        List<DsFeature> features = ds.features().list();
        if (ds.recovering() || features.isEmpty()) {
            then.run();
            return;
        }
        int[] left = {features.size()};
        for (DsFeature f : features) {
            f.beforeEpochPrepared(epoch, () -> {
                if (--left[0] == 0) {
                    then.run();
                }
            });
        }
    }
}
