package org.tebaldi.server.process;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;

/**
 * Maximum heap of each node JVM the runner launches (docs/cluster.md, "Process mode"), so that every node together with the
 * runner fits in the machine's memory: the usable memory (the machine's RAM, or less when other programs use it:
 * what the system reports available plus the heap this JVM already holds) less the runner's maximum heap, a fixed
 * reserve for the operating system and {@value #NON_HEAP_MB} MiB of non-heap memory per JVM (metaspace, code, thread
 * stacks, Netty's direct buffers) is divided among the nodes — {@value #SERVICE_MB} MiB for each service node
 * (timestamp service, batch manager), the rest in shares of two for a data server (it holds the data) and one for a
 * coordinator. When that leaves a node less than {@value #MIN_MB} MiB, or when a fixed {@code -Xmx} for every node
 * ({@code TEBALDI_NODE_JAVA_OPTS}) does not fit, planning fails with one message naming the numbers and the fix —
 * before anything starts. On this project's 24 GiB machine with the runner's 8 GiB heap and nothing else running,
 * TPC-C's six nodes get about 3.5 GiB per data server and 1.75 GiB per coordinator.
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
     * Plans for this machine: its usable memory ({@link #usableRamMb}) and this JVM's maximum heap as the runner's.
     * When {@code nodeCommand} sets {@code -Xmx} itself (the last one counts, as for the JVM), every node gets that
     * heap and only the fit is checked.
     *
     * @param nodes       the nodes to launch
     * @param nodeCommand the command that starts a node (its {@code -Xmx}, if any, overrides the plan)
     * @return each node's maximum heap, MiB, in the order given; empty when the command fixes the heap
     * @throws IllegalStateException naming the numbers and the fix when the nodes cannot fit
     */
    public static Map<NodeId, Long> forThisMachine(Collection<NodeId> nodes, List<String> nodeCommand) {
        long ram = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize() >> 20;
        long usable = usableRamMb(ram, availableMb(), Runtime.getRuntime().totalMemory() >> 20);
        long runner = Runtime.getRuntime().maxMemory() >> 20;
        long fixed = xmxMb(nodeCommand);
        if (fixed > 0) {
            checkFixed(nodes, fixed, usable, ram, runner);
            return Map.of();
        }
        return plan(nodes, usable, ram, runner);
    }

    /**
     * Memory a run may use, MiB: the machine's RAM, or, when other programs hold part of it, what the system
     * reports available plus the heap this JVM already committed (it is counted as used there but belongs to the
     * runner, whose whole maximum heap the plan subtracts anyway).
     *
     * @param ramMb         physical memory
     * @param availableMb   available memory ({@code MemAvailable}), or a negative number if unknown
     * @param committedMb   this JVM's committed heap
     */
    static long usableRamMb(long ramMb, long availableMb, long committedMb) {
        return availableMb < 0 ? ramMb : Math.min(ramMb, availableMb + committedMb);
    }

    /** {@code MemAvailable} of {@code /proc/meminfo}, MiB, or -1 where there is none. */
    private static long availableMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: plan with the physical memory
        }
        return -1;
    }

    /**
     * The plan for a machine of {@code ramMb} MiB, all usable, whose runner may use {@code runnerHeapMb} MiB of heap.
     *
     * @see #plan(Collection, long, long, long)
     */
    public static Map<NodeId, Long> plan(Collection<NodeId> nodes, long ramMb, long runnerHeapMb) {
        return plan(nodes, ramMb, ramMb, runnerHeapMb);
    }

    /**
     * The plan for {@code usableMb} MiB of usable memory (of {@code ramMb} MiB RAM) whose runner may use
     * {@code runnerHeapMb} MiB of heap.
     *
     * @return each node's maximum heap, MiB (at least {@link #MIN_MB}), in the order given
     * @throws IllegalArgumentException if {@code nodes} is empty or a size is negative
     * @throws IllegalStateException    naming the numbers and the fix if a node would get less than {@link #MIN_MB}
     */
    public static Map<NodeId, Long> plan(Collection<NodeId> nodes, long usableMb, long ramMb, long runnerHeapMb) {
        if (nodes.isEmpty() || usableMb < 0 || runnerHeapMb < 0) {
            throw new IllegalArgumentException("no nodes, or a negative size: " + nodes + " " + usableMb + " "
                    + runnerHeapMb);
        }
        long left = usableMb - RESERVE_MB - runnerHeapMb - NON_HEAP_MB * (nodes.size() + 1);
        long shares = 0;
        long services = 0;
        int dataServers = 0;
        for (NodeId n : nodes) {
            if (service(n)) {
                left -= SERVICE_MB;
                services++;
            } else {
                shares += share(n);
                dataServers += n.role() == Role.DS ? 1 : 0;
            }
        }
        long perShare = shares == 0 ? 0 : Math.max(0, left) / shares;
        if (left < 0 || (shares > 0 && perShare < MIN_MB)) {
            long need = RESERVE_MB + runnerHeapMb + NON_HEAP_MB * (nodes.size() + 1) + SERVICE_MB * services
                    + MIN_MB * shares;
            throw new IllegalStateException(String.format(Locale.ROOT, "process mode cannot fit its %d node JVMs "
                    + "beside the runner in this machine's memory: %,d MiB usable (%,d MiB RAM) but at least %,d "
                    + "MiB needed = the runner's heap %,d MiB (its -Xmx) + %,d MiB reserve + %d x %d MiB non-heap + "
                    + "%s%d data server(s) x %d MiB + %d coordinator(s) x %d MiB; fix: "
                    + "fewer nodes (cluster.dataServers, cluster.coordinators), a smaller runner heap "
                    + "(TEBALDI_JAVA_OPTS=-Xmx2g), or free memory (stop other programs)", nodes.size(), usableMb,
                    ramMb, need, runnerHeapMb, RESERVE_MB, nodes.size() + 1, NON_HEAP_MB,
                    services == 0 ? "" : services + " service node(s) x " + SERVICE_MB + " MiB + ", dataServers, 2 * MIN_MB, nodes.size() - services - dataServers, MIN_MB));
        }
        Map<NodeId, Long> out = new LinkedHashMap<>();
        for (NodeId n : nodes) {
            out.put(n, service(n) ? SERVICE_MB : perShare * share(n));
        }
        return out;
    }

    /**
     * Checks that every node with a heap of {@code heapMb} MiB fits beside the runner.
     *
     * @throws IllegalStateException naming the numbers and the fix if they do not
     */
    static void checkFixed(Collection<NodeId> nodes, long heapMb, long usableMb, long ramMb, long runnerHeapMb) {
        long need = RESERVE_MB + runnerHeapMb + NON_HEAP_MB * (nodes.size() + 1) + heapMb * nodes.size();
        if (need > usableMb) {
            throw new IllegalStateException(String.format(Locale.ROOT, "process mode cannot fit its %d node JVMs "
                    + "beside the runner in this machine's memory: %,d MiB usable (%,d MiB RAM) but %,d MiB needed "
                    + "= the runner's heap %,d MiB (its -Xmx) + %,d MiB reserve + %d x %d MiB non-heap + %d nodes x "
                    + "-Xmx %,d MiB (TEBALDI_NODE_JAVA_OPTS); fix: a smaller node heap in TEBALDI_NODE_JAVA_OPTS "
                    + "(or none: the runner then divides the memory), fewer nodes (cluster.dataServers, "
                    + "cluster.coordinators), or a smaller runner heap (TEBALDI_JAVA_OPTS=-Xmx2g)", nodes.size(),
                    usableMb, ramMb, need, runnerHeapMb, RESERVE_MB, nodes.size() + 1, NON_HEAP_MB, nodes.size(),
                    heapMb));
        }
    }

    /**
     * The last {@code -Xmx} of a JVM command line, MiB, or -1 if it has none.
     *
     * @throws IllegalStateException if an {@code -Xmx} is malformed (e.g. {@code -Xmx2q})
     */
    static long xmxMb(List<String> command) {
        long mb = -1;
        for (String a : command) {
            if (!a.startsWith("-Xmx")) {
                continue;
            }
            String v = a.substring(4).toLowerCase(Locale.ROOT);
            try {
                char unit = v.isEmpty() ? ' ' : v.charAt(v.length() - 1);
                long num = Long.parseLong(Character.isDigit(unit) ? v : v.substring(0, v.length() - 1));
                mb = switch (unit) {
                    case 'k' -> num >> 10;
                    case 'm' -> num;
                    case 'g' -> num << 10;
                    case 't' -> num << 20;
                    default -> {
                        if (!Character.isDigit(unit)) {
                            throw new NumberFormatException(a);
                        }
                        yield num >> 20;
                    }
                };
            } catch (NumberFormatException e) {
                throw new IllegalStateException("'" + a + "' in the node command (TEBALDI_NODE_JAVA_OPTS) is not a "
                        + "heap size; write e.g. -Xmx2g or -Xmx1500m");
            }
        }
        return mb;
    }

    private static boolean service(NodeId n) {
        return n.role() != Role.DS && n.role() != Role.TC;
    }

    private static int share(NodeId n) {
        return n.role() == Role.DS ? 2 : 1;
    }
}
