package org.tebaldi.bench.driver;

import java.util.Map;

/**
 * What the machine spent during a run's measured window (docs/performance.md): the CPU time of the runner's JVM and
 * of each node it hosts, and the garbage collector's stop-the-world pauses. A result measured while the CPU was
 * saturated measures the engine, not the concurrency control: {@link #saturated()} says so.
 *
 * @param cores          processors available to the JVM
 * @param wallMs         length of the window, ms
 * @param processCpuMs   CPU time of the whole JVM in the window (nodes, driver, timers, garbage collector), ms
 * @param nodeCpuMs      CPU time of each node's handlers in the window, ms, by node name (empty where unknown, e.g.
 *                       nodes in other processes)
 * @param gcPauses       stop-the-world collections in the window (G1: young, mixed and full collections)
 * @param gcPauseMs      their total duration, ms
 * @param gcMaxPauseMs   the longest, ms
 * @param handlerUs      simulated runs: for the busiest nodes, their handlers' CPU time in the window by handler key
 *                       (e.g. {@code ds ExecRequest}), µs — where the time of a node that limits the run goes
 *                       (docs/simulation.md, "Where a node's time goes"); empty otherwise
 * @param jitMs          time the JIT compiler's threads spent compiling in the window, ms summed over the threads
 *                       ({@link JitActivity}); -1 when unknown (simulated runs, a JVM that does not report it)
 */
public record MachineUsage(int cores, long wallMs, long processCpuMs, Map<String, Long> nodeCpuMs, int gcPauses,
                           long gcPauseMs, long gcMaxPauseMs, Map<String, Map<String, Long>> handlerUs, long jitMs) {
    /** Utilization above which a run counts as CPU-bound. */
    public static final double SATURATED = 0.90;

    public MachineUsage {
        nodeCpuMs = Map.copyOf(nodeCpuMs);
        handlerUs = Map.copyOf(handlerUs);
    }

    /** Without a handler breakdown and with the compile time unknown. */
    public MachineUsage(int cores, long wallMs, long processCpuMs, Map<String, Long> nodeCpuMs, int gcPauses,
                        long gcPauseMs, long gcMaxPauseMs) {
        this(cores, wallMs, processCpuMs, nodeCpuMs, gcPauses, gcPauseMs, gcMaxPauseMs, Map.of(), -1);
    }

    /** With the compile time unknown (simulated runs: virtual time has no JIT). */
    public MachineUsage(int cores, long wallMs, long processCpuMs, Map<String, Long> nodeCpuMs, int gcPauses,
                        long gcPauseMs, long gcMaxPauseMs, Map<String, Map<String, Long>> handlerUs) {
        this(cores, wallMs, processCpuMs, nodeCpuMs, gcPauses, gcPauseMs, gcMaxPauseMs, handlerUs, -1);
    }

    /**
     * The JIT compiler's compile time as a share of the window (summed over its threads); null when unknown. Above
     * {@link JitActivity#QUIET_SHARE} the JVM was still warming up while it was measured ({@link #JIT_WARNING}).
     */
    public Double jitShare() {
        return jitMs < 0 || wallMs <= 0 ? null : (double) jitMs / wallMs;
    }

    /** Whether the JIT compiler was busier in the window than a settled warm-up allows. */
    public boolean jitBusy() {
        Double s = jitShare();
        return s != null && s > JitActivity.QUIET_SHARE;
    }

    /** The warning a window with a busy JIT compiler prints and records. */
    public static final String JIT_WARNING = "the JIT compiler was still busy in the measured window: the JVM was "
            + "still warming up; raise warmup.max (or warmup.min)";

    /** CPU time of the JVM / (window × cores): 1.0 means every core was busy the whole window. */
    public double utilization() {
        return wallMs <= 0 ? 0 : (double) processCpuMs / ((double) wallMs * cores);
    }

    /** CPU time of one node / window: 1.0 means one core busy with that node the whole window. */
    public double nodeUtilization(String node) {
        Long ms = nodeCpuMs.get(node);
        return ms == null || wallMs <= 0 ? 0 : (double) ms / wallMs;
    }

    /** CPU time of the nodes together, ms. */
    public long nodesCpuMs() {
        return nodeCpuMs.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Garbage-collection pauses as a share of the window. */
    public double gcPauseShare() {
        return wallMs <= 0 ? 0 : (double) gcPauseMs / wallMs;
    }

    /** Whether the machine, not concurrency control, set the throughput: utilization at or above 90%. */
    public boolean saturated() {
        return utilization() >= SATURATED;
    }

    /** The warning a saturated run prints and records. */
    public static final String WARNING = "throughput limited by CPU, not by concurrency control";
}
