package org.tebaldi.bench.jmh;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * The thread CPU time and bytes allocated per run of {@link ProcFixture}, a cross-check of
 * {@link ProcInterpreterBenchmark} that other processes on a shared machine disturb less than wall time: after a
 * warm-up of 8 s of CPU time, {@code windows} windows of {@code runs} runs each; prints the median, minimum and
 * maximum CPU ns per run over the windows and the bytes this thread allocated per run (docs/jmh.md).
 *
 * <pre>{@code
 * java -cp benchmarks/target/jmh.jar org.tebaldi.bench.jmh.ProcedureCpuTime new_order rp batched 31 2000
 * }</pre>
 */
public final class ProcedureCpuTime {
    private static final long WARMUP_CPU_NANOS = 8_000_000_000L;

    private ProcedureCpuTime() {
    }

    /**
     * @param args txn ({@code new_order}, {@code payment}), form ({@code plain}, {@code rp}), mode ({@code batched},
     *             {@code single}), windows, runs per window
     * @throws IllegalArgumentException on a wrong argument count or value
     */
    public static void main(String[] args) {
        if (args.length != 5 || !args[2].equals("batched") && !args[2].equals("single")) {
            throw new IllegalArgumentException("usage: ProcedureCpuTime TXN FORM batched|single WINDOWS RUNS");
        }
        ProcFixture f = new ProcFixture(args[0], args[1], args[2].equals("batched"));
        int windows = Integer.parseInt(args[3]);
        int runs = Integer.parseInt(args[4]);
        if (windows < 1 || runs < 1) {
            throw new IllegalArgumentException("windows and runs must be at least 1");
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long warm = mx.getCurrentThreadCpuTime() + WARMUP_CPU_NANOS;
        while (mx.getCurrentThreadCpuTime() < warm) {
            f.run();
        }
        double[] ns = new double[windows];
        long bytesBefore = mx.getCurrentThreadAllocatedBytes();
        for (int w = 0; w < windows; w++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < runs; i++) {
                f.run();
            }
            ns[w] = (mx.getCurrentThreadCpuTime() - t0) / (double) runs;
        }
        long bytes = (mx.getCurrentThreadAllocatedBytes() - bytesBefore) / ((long) windows * runs);
        Arrays.sort(ns);
        System.out.printf(Locale.ROOT, "%s %s %s: cpu ns/run median %.0f (min %.0f, max %.0f), %d B/run%n", args[0],
                args[1], args[2], ns[windows / 2], ns[0], ns[windows - 1], bytes);
    }
}
