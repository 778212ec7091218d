package org.tebaldi.server.ds;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.tebaldi.server.durability.LogStore;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.CommitProtocol;
import org.tebaldi.server.node.Features;

/**
 * Builds a data server's feature list from its {@link ClusterConfig} (docs/architecture.md, "Nodes and features"),
 * the same way for the embedded, simulated and process assemblies, in the order their points run: replication
 * ({@code replication.factor >= 2}), durability and recovery ({@code durability.enabled}, with a log store to
 * open), epoch-based commit ({@code commit: epoch}), then termination and reconfiguration (always), then fencing (a {@link ClusterConfig#lease}).
 */
final class DsFeatures {
    private DsFeatures() {
    }

    /**
     * @param toSelf   runs a log store's callback on the server's thread; null opens no log store (durability and
     *                 the replication of the log stay off)
     * @param promoted a backup's replica to open instead of the server's own store, or null
     * @throws IllegalStateException if the log store cannot be opened
     */
    static Features<DsFeature> build(DataServer ds, Executor toSelf, LogStore.Factory promoted) {
        ClusterConfig cfg = ds.config();
        List<DsFeature> list = new ArrayList<>();
        boolean logged = cfg.durability().enabled() && toSelf != null;
        if (logged) {
            LogStore st = DsDurability.openStore(ds, toSelf, promoted);
            if (cfg.replication().enabled()) {
                DsReplication r = DsReplication.open(ds, st, promoted != null, toSelf);
                list.add(r);
                st = r.wrap(st);
            }
            boolean group = cfg.durability().sync() && cfg.commitProtocol() == CommitProtocol.EPOCH;
            DsDurability dur = new DsDurability(ds, cfg.durability(), st, group);
            list.add(dur);
            list.add(new DsRecovery(ds, dur));
        } else if (cfg.replication().enabled()) {
            list.add(DsReplication.off(ds));
        }
        if (cfg.commitProtocol() == CommitProtocol.EPOCH) {
            list.add(new DsEpochs(ds));
        }
        list.add(ds.termination());
        list.add(ds.reconfig());
        if (cfg.lease() != null) {
            list.add(new DsFencing(ds, cfg.lease())); // last: its vote check runs when the vote would leave
        }
        return new Features<>(list);
    }
}
