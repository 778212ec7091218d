package org.tebaldi.bench.driver;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * The JIT compiler's work in this JVM, from its {@link CompilationMXBean} (docs/performance.md, "A steady measured
 * window"): the time its compiler threads spent compiling, ms, summed over the threads. On 2 cores the default
 * experiment's compiler threads still take 30-75% of one core 20-30 s into a run with verification on, and a
 * measured window that starts then measures the JIT, not the tree: in one such run throughput rose from about 8,100
 * to 8,900-10,900 txn/s once compilation fell below 5% of a core, 40 s in. A warm-up that lasts until throughput
 * settles therefore also waits until the compiler is {@linkplain #quiet() quiet}. Sampled by the driver's thread
 * once a second.
 */
public final class JitActivity {
    /**
     * Largest compile time, as a share of the last {@value #QUIET_SECONDS} s, for the compiler to count as quiet
     * (compile time is elapsed time summed over the compiler threads: on a saturated machine up to about twice their
     * CPU time).
     */
    public static final double QUIET_SHARE = 0.05;
    /** Seconds over which {@link #QUIET_SHARE} is taken. */
    public static final int QUIET_SECONDS = 5;

    /** Compile time so far, ms; null when the JVM does not report it. */
    private final LongSupplier compileMillis;
    private final long[] perSecond = new long[QUIET_SECONDS];
    private int seconds;
    private long last;

    /**
     * @param compileMillis the compiler's time so far, ms, non-decreasing (e.g. {@link
     *                      CompilationMXBean#getTotalCompilationTime}); null when unknown: then always quiet
     */
    public JitActivity(LongSupplier compileMillis) {
        this.compileMillis = compileMillis;
        this.last = compileMillis == null ? 0 : compileMillis.getAsLong();
    }

    /** This JVM's compiler; unknown (always quiet) when the JVM does not monitor compilation time. */
    public static JitActivity ofThisJvm() {
        return new JitActivity(totalMillisOfThisJvm());
    }

    /**
     * This JVM's compile time so far, ms, as a supplier; null when the JVM has no JIT compiler or does not
     * monitor its time.
     */
    public static LongSupplier totalMillisOfThisJvm() {
        CompilationMXBean b = ManagementFactory.getCompilationMXBean();
        return b == null || !b.isCompilationTimeMonitoringSupported() ? null : b::getTotalCompilationTime;
    }

    /** One more second passed: records the compile time it took. */
    void secondPassed() {
        if (compileMillis == null) {
            return;
        }
        long now = compileMillis.getAsLong();
        perSecond[seconds++ % QUIET_SECONDS] = Math.max(0, now - last);
        last = now;
    }

    /**
     * Whether the compile time over the last {@value #QUIET_SECONDS} seconds recorded was at most
     * {@value #QUIET_SHARE} of them (false before that many were); always true when the compile time is unknown.
     */
    boolean quiet() {
        if (compileMillis == null) {
            return true;
        }
        if (seconds < QUIET_SECONDS) {
            return false;
        }
        long sum = 0;
        for (long ms : perSecond) {
            sum += ms;
        }
        return sum <= QUIET_SHARE * QUIET_SECONDS * 1000;
    }
}
