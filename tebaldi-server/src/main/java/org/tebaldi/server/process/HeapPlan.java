package org.tebaldi.server.process;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;

/**
 * Maximum heap of each node JVM the runner launches (README, "Process mode"), so that every node together with the
 * runner fits in the machine's memory: the memory left after the runner's maximum heap, a fixed reserve for the
 * operating system and {@value #NON_HEAP_MB} MiB of non-heap memory per JVM (metaspace, code, thread stacks,
 * Netty's direct buffers) is divided among the nodes — {@value #SERVICE_MB} MiB for each service node (timestamp
 * service, batch manager), the rest in shares of two for a data server (it holds the data) and one for a
 * coordinator — and each heap is at least {@value #MIN_MB} MiB. On this project's 24 GiB machine with the runner's
 * 8 GiB heap, TPC-C's six nodes get about 3.5 GiB per data server and 1.75 GiB per coordinator. An {@code -Xmx} in the
 * node options ({@code TEBALDI_NODE_JAVA_OPTS}) comes later on the command line and overrides the plan.
 */
public final class HeapPlan {
    /** Non-heap memory assumed per JVM, MiB. */
    public static final long NON_HEAP_MB = 512;
    /** Heap of a service node, MiB. */
    public static final long SERVICE_MB = 512;
    /** Smallest heap the plan gives a node, MiB. */
    public static final long MIN_MB = 512;
    /** Memory left to the operating system and other programs, MiB. */
    public static final long RESERVE_MB = 1024;

    private HeapPlan() {
    }

    /**
     * Plans with this machine's physical memory and this JVM's maximum heap as the runner's.
     *
     * @param nodes the nodes to launch
     * @return each node's maximum heap, MiB, in the order given
     */
    public static Map<NodeId, Long> forThisMachine(Collection<NodeId> nodes) {
        long ram = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize() >> 20;
        return plan(nodes, ram, Runtime.getRuntime().maxMemory() >> 20);
    }

    /**
     * The plan for a machine of {@code ramMb} MiB whose runner may use {@code runnerHeapMb} MiB of heap.
     *
     * @return each node's maximum heap, MiB (at least {@link #MIN_MB}), in the order given
     * @throws IllegalArgumentException if {@code nodes} is empty or a size is negative
     */
    public static Map<NodeId, Long> plan(Collection<NodeId> nodes, long ramMb, long runnerHeapMb) {
        if (nodes.isEmpty() || ramMb < 0 || runnerHeapMb < 0) {
            throw new IllegalArgumentException("no nodes, or a negative size: " + nodes + " " + ramMb + " "
                    + runnerHeapMb);
        }
        long left = ramMb - RESERVE_MB - runnerHeapMb - NON_HEAP_MB * (nodes.size() + 1);
        long shares = 0;
        for (NodeId n : nodes) {
            if (service(n)) {
                left -= SERVICE_MB;
            } else {
                shares += share(n);
            }
        }
        long perShare = shares == 0 ? 0 : Math.max(0, left) / shares;
        Map<NodeId, Long> out = new LinkedHashMap<>();
        for (NodeId n : nodes) {
            out.put(n, Math.max(MIN_MB, service(n) ? SERVICE_MB : perShare * share(n)));
        }
        return out;
    }

    private static boolean service(NodeId n) {
        return n.role() != Role.DS && n.role() != Role.TC;
    }

    private static int share(NodeId n) {
        return n.role() == Role.DS ? 2 : 1;
    }
}
