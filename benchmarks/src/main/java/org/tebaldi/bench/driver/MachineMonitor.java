package org.tebaldi.bench.driver;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Measures {@link MachineUsage} over a window: the JVM's CPU time, the CPU time of each node it hosts (from the
 * runtime's accounting), and the stop-the-world collections, reported by the JVM's garbage-collection
 * notifications. {@link #start} and {@link #stop} from the driver's thread.
 */
public final class MachineMonitor {
    private final Supplier<Map<String, Long>> nodeCpuNanos;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final List<Runnable> unsubscribe = new ArrayList<>();
    private long startNanos;
    private long startCpu;
    private Map<String, Long> startNodes = Map.of();
    private int pauses;
    private long pauseMs;
    private long maxPauseMs;
    private final java.util.function.LongSupplier jitMillis = JitActivity.totalMillisOfThisJvm();
    private long startJit;

    /** @param nodeCpuNanos CPU time of each node so far, ns, by node name; null when nodes run elsewhere */
    public MachineMonitor(Supplier<Map<String, Long>> nodeCpuNanos) {
        this.nodeCpuNanos = nodeCpuNanos;
    }

    /** Starts the window. */
    public synchronized void start() {
        startNanos = System.nanoTime();
        startCpu = os.getProcessCpuTime();
        startJit = jitMillis == null ? 0 : jitMillis.getAsLong();
        startNodes = nodeCpuNanos == null ? Map.of() : nodeCpuNanos.get();
        NotificationListener l = this::onGc;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter e) {
                e.addNotificationListener(l, null, null);
                unsubscribe.add(() -> {
                    try {
                        e.removeNotificationListener(l);
                    } catch (javax.management.ListenerNotFoundException x) {
                        // already gone
                    }
                });
            }
        }
    }

    private synchronized void onGc(Notification n, Object handback) {
        if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        String name = info.getGcName();
        if (name.contains("Cycles") || name.contains("Concurrent")) {
            return; // concurrent work (ZGC cycles, G1's concurrent phases) stops no thread
        }
        long ms = info.getGcInfo().getDuration();
        pauses++;
        pauseMs += ms;
        maxPauseMs = Math.max(maxPauseMs, ms);
    }

    /** Ends the window and returns what it measured. */
    public synchronized MachineUsage stop() {
        long wallMs = (System.nanoTime() - startNanos) / 1_000_000;
        long cpuMs = Math.max(0, os.getProcessCpuTime() - startCpu) / 1_000_000;
        unsubscribe.forEach(Runnable::run);
        unsubscribe.clear();
        Map<String, Long> nodes = new HashMap<>();
        if (nodeCpuNanos != null) {
            nodeCpuNanos.get().forEach((node, ns) -> nodes.put(node, (ns - startNodes.getOrDefault(node, 0L)) / 1_000_000));
        }
        return new MachineUsage(Runtime.getRuntime().availableProcessors(), wallMs, cpuMs, nodes, pauses, pauseMs,
                maxPauseMs, Map.of(), jitMillis == null ? -1 : Math.max(0, jitMillis.getAsLong() - startJit));
    }
}
