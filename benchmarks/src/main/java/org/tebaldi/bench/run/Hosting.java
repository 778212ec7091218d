package org.tebaldi.bench.run;

import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.core.tree.CcTree;

/**
 * Where a {@link RunExtension} hosts its nodes: the embedded cluster's runtime, or — in processes mode — the
 * runner's runtime, registered in ZooKeeper so every node process reaches them over the network.
 */
public interface Hosting {
    /** Starts {@code actor} as node {@code id} (before the clients start). */
    void addNode(NodeId id, Actor actor);

    /** The runtime those nodes run on (to inject requests from other threads). */
    NodeRuntime runtime();

    /**
     * CPU time each node hosted in this JVM used so far, ns, by node name (e.g. {@code coordinator-0}); empty when
     * the nodes run in other processes.
     */
    default java.util.Map<String, Long> nodeCpuNanos() {
        return java.util.Map.of();
    }

    /**
     * What the data servers' stores hold, summed (docs/performance.md, "Rows off the heap"); null when the nodes run
     * in other processes.
     */
    default org.tebaldi.core.storage.StorageStats storage() {
        return null;
    }

    /** Records the tree the cluster runs after a reconfiguration (processes mode: in ZooKeeper). */
    default void treeChanged(CcTree tree) {
    }
}
