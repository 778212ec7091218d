package org.tebaldi.bench.run;

import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * The checks of {@code verify: true} (docs/architecture.md, "Verification"): the serializability checker on the merged history of every
 * node (or the verdict of the streamed, bounded-memory check of an embedded run), and the workload's consistency
 * check on the final state. Run after the cluster stopped.
 */
public final class Verifier {
    private Verifier() {
    }

    /** Runs both checks on a stopped cluster that recorded its history. */
    public static Checks verify(Cluster cluster, Workload workload) {
        return verify(cluster, workload, SerializabilityChecker.check(History.merge(cluster.historyLogs())));
    }

    /** The workload's check on a stopped cluster, with serializability verdict {@code r} computed elsewhere. */
    public static Checks verify(Cluster cluster, Workload workload, CheckResult r) {
        return verify(cluster, workload, r.serializable(), r.summary());
    }

    /**
     * The workload's check on a stopped cluster, with the serializability verdict and report computed elsewhere
     * (e.g. by a checker process).
     */
    public static Checks verify(Cluster cluster, Workload workload, boolean serializable, String report) {
        ClusterSnapshot snap = ClusterSnapshot.of(workload.database().catalog(),
                cluster.dataServers().stream().map(DataServer::store).toList());
        return new Checks(serializable, report, workload.check(snap));
    }
}
