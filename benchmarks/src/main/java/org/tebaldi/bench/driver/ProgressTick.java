package org.tebaldi.bench.driver;

/**
 * One per-second progress sample of a run.
 *
 * @param second       seconds since the start of the run (1, 2, ...)
 * @param totalSeconds length of the run (warm-up + duration), whole seconds rounded up; 0 while a warm-up that ends
 *                     when throughput settles runs (the length is not known yet)
 * @param phase        {@code warmup} or {@code measure}: the phase the second ended in
 * @param txnPerSec    commits in the last second, txn/s
 * @param abortRate    aborted attempts / all attempts in the last second, 0..1
 * @param wallMillis   simulated runs: wall-clock time since the start of the run, ms (seconds above are virtual);
 *                     -1 for real-time runs
 */
public record ProgressTick(long second, long totalSeconds, String phase, double txnPerSec, double abortRate,
                           long wallMillis) {
    /** A tick of a real-time run. */
    public ProgressTick(long second, long totalSeconds, String phase, double txnPerSec, double abortRate) {
        this(second, totalSeconds, phase, txnPerSec, abortRate, -1);
    }
}
