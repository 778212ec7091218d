package org.tebaldi.server.ds;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.server.epoch.EpochMessages;

/**
 * A data server's answer to a commit epoch's {@link EpochMessages.Prepare} (COCO, Lu et al. VLDB 2021, §3; docs/
 * mechanisms.md, "Epoch-based commit"). The server holds its prepared-write records until the coordinators' commit
 * or abort messages, so it is prepared unless it is recovering from its log; once every coordinator's share of the
 * epoch arrived ({@link DsEpochs}) the answer waits for every registered {@link Readiness} condition — group durability's sync of the epoch's log records
 * ({@link DsDurability#syncForEpoch}), and the place for others (e.g. the backups' acknowledgements under
 * replication). A server that starts recovering while it waits answers no. Data server thread only.
 */
final class DsEpochPrepare {
    /** A condition the answer to an epoch's prepare waits for. */
    @FunctionalInterface
    interface Readiness {
        /** Calls {@code ready} (once, on the data server's thread) when epoch {@code epoch} may be acknowledged. */
        void await(long epoch, Runnable ready);
    }

    private final DataServer ds;
    private final List<Readiness> conditions = new ArrayList<>();

    DsEpochPrepare(DataServer ds) {
        this.ds = ds;
    }

    /** Adds a condition every later prepare waits for. */
    void add(Readiness r) {
        conditions.add(r);
    }

    /**
     * Runs {@code then} once every condition is met for epoch {@code epoch} (at once if there is none, or if this
     * server is recovering: it then answers no anyway). Called by {@link DsEpochs} once the epoch's shares arrived.
     */
    void whenReady(long epoch, Runnable then) {
        if (ds.recovering() || conditions.isEmpty()) {
            then.run();
            return;
        }
        int[] left = {conditions.size()};
        for (Readiness r : List.copyOf(conditions)) {
            r.await(epoch, () -> {
                if (--left[0] == 0) {
                    then.run();
                }
            });
        }
    }
}
