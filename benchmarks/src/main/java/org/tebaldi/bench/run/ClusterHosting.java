package org.tebaldi.bench.run;

import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.core.storage.StorageStats;
import org.tebaldi.server.cluster.Cluster;

/**
 * {@link Hosting} on a cluster in this JVM, embedded ({@link ExperimentRun}) or simulated
 * ({@link SimulatedExperimentRun}): the extension's nodes join the cluster on its runtime. On the embedded runtime
 * it also reports each node's CPU time (ns, by node name) and the stores' figures; on the simulated one neither (its
 * virtual CPU is in the run's own report). Processes mode hosts on the runner's runtime instead.
 */
final class ClusterHosting implements Hosting {
    private final Cluster cluster;
    private final NodeRuntime runtime;

    private ClusterHosting(Cluster cluster, NodeRuntime runtime) {
        this.cluster = cluster;
        this.runtime = runtime;
    }

    /**
     * The extension's part before the clients start: every mechanism's service nodes if it asks for them
     * ({@link RunExtension#allServices}), then {@link RunExtension#beforeStart} with {@code cluster} as its host.
     */
    static void start(RunExtension extension, Cluster cluster, NodeRuntime runtime) {
        if (extension.allServices()) {
            cluster.withAllServices();
        }
        extension.beforeStart(new ClusterHosting(cluster, runtime));
    }

    /** CPU time of the nodes of {@code rt} so far, ns, by node name. */
    static Map<String, Long> nodeCpu(EmbeddedRuntime rt) {
        Map<String, Long> out = new TreeMap<>();
        rt.cpuNanos().forEach((id, ns) -> out.put(id.toString(), ns));
        return out;
    }

    @Override
    public void addNode(NodeId id, Actor actor) {
        cluster.addNode(id, actor);
    }

    @Override
    public NodeRuntime runtime() {
        return runtime;
    }

    @Override
    public Map<String, Long> nodeCpuNanos() {
        return runtime instanceof EmbeddedRuntime rt ? nodeCpu(rt) : Map.of();
    }

    @Override
    public StorageStats storage() {
        return runtime instanceof EmbeddedRuntime ? MemoryFigures.storage(cluster) : null;
    }
}
