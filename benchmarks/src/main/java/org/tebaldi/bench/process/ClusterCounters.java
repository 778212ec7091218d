package org.tebaldi.bench.process;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.tebaldi.core.runtime.MessageCounters;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.process.Control;
import org.tebaldi.server.process.ProcessCluster;

/**
 * The message counters of a whole process-mode cluster (summary.json {@code messages}): reset asks every node
 * process to zero its counters; a snapshot sums every live node's counters (asked over the control plane, 5 s at
 * most each) and the runner's own (which count the client endpoints' messages), as embedded mode counts every
 * message once, at its sender.
 */
final class ClusterCounters implements MessageCounters {
    private final ProcessCluster cluster;

    ClusterCounters(ProcessCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public void reset() {
        cluster.runtime().stats().reset();
        for (NodeId n : cluster.nodes()) {
            if (!cluster.failedNodes().contains(n)) {
                cluster.control().resetStats(n);
            }
        }
    }

    @Override
    public Map<String, Long> snapshot() {
        Map<String, Long> sum = new TreeMap<>(cluster.runtime().stats().snapshot());
        Map<NodeId, CompletableFuture<Control.Status>> asked = new TreeMap<>();
        for (NodeId n : cluster.nodes()) {
            if (!cluster.failedNodes().contains(n)) {
                asked.put(n, cluster.control().status(n));
            }
        }
        asked.forEach((n, f) -> {
            try {
                f.get(5, TimeUnit.SECONDS).messages().forEach((k, v) -> sum.merge(k, v, Long::sum));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // a node that failed or did not answer: its counters are lost with it
            }
        });
        return sum;
    }
}
