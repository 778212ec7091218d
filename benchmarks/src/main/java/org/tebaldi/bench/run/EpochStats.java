package org.tebaldi.bench.run;

import org.tebaldi.core.runtime.Role;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.epoch.EpochService;
import org.tebaldi.server.node.CommitProtocol;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * What epoch-based commit ({@code cluster.commit: epoch}) measured over a whole run (warm-up included): epochs the
 * epoch service committed and aborted, the mean epoch commit latency (from the epoch's prepare leaving the service
 * to its commit decision, µs), and the mean time a transaction was held (from its commit decision at its
 * coordinator to its release at the epoch's commit, µs, over every coordinator).
 */
public record EpochStats(long committed, long aborted, double commitLatencyMicros, double heldMicros) {
    /**
     * The stats of a stopped cluster's current epoch-service instance and coordinators; null under two-phase commit
     * or when the service does not run in this JVM.
     */
    public static EpochStats of(Cluster cluster) {
        if (cluster.config().commitProtocol() != CommitProtocol.EPOCH
                || !(cluster.service(Role.EPOCH) instanceof EpochService s)) {
            return null;
        }
        double held = 0;
        int n = 0;
        for (TransactionCoordinator tc : cluster.coordinators()) {
            double[] st = tc.epochStats();
            if (st != null && st[3] > 0) {
                held += st[3];
                n++;
            }
        }
        return new EpochStats(s.committedEpochs(), s.abortedEpochs(), s.meanCommitLatencyMicros(),
                n == 0 ? 0 : held / n);
    }
}
