package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.CommitProtocol;
import org.tebaldi.server.node.Features;

/**
 * Builds a coordinator's feature list from its {@link ClusterConfig} (docs/architecture.md, "Nodes and features"),
 * the same way for the embedded, simulated and process assemblies, in the order their points run: termination
 * (always: timeouts and the decisions kept for outcome queries), durability and recovery ({@code
 * durability.enabled}), reconfiguration (always), epoch-based commit ({@code commit: epoch}), failures (always).
 */
final class TcFeatures {
    private TcFeatures() {
    }

    static Features<TcFeature> build(TransactionCoordinator tc, ClusterConfig cfg) {
        List<TcFeature> list = new ArrayList<>();
        list.add(tc.termination());
        if (cfg.durability().enabled()) {
            list.add(new TcDurability(tc, cfg.dataServers(), cfg.durability().sync(), cfg.recordHistory()));
        }
        list.add(new Reconfiguring(tc));
        if (cfg.commitProtocol() == CommitProtocol.EPOCH) {
            list.add(new TcEpochs(tc, cfg.recordHistory()));
        }
        list.add(tc.failures());
        return new Features<>(list);
    }
}
