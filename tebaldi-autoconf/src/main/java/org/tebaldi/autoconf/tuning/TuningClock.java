package org.tebaldi.autoconf.tuning;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.tebaldi.core.runtime.SimulatedThread;

/**
 * The time the tuning daemon measures and waits in (docs/autoconf.md, "Tuning a simulated cluster"): the real clock
 * beside a live cluster, or a simulation's virtual clock, where the daemon runs as a {@link SimulatedThread} and every
 * wait hands control to the simulation until its virtual wake-up. Swap durations, sample periods, analysis periods
 * and the final measurement are all read from it.
 */
public interface TuningClock {
    /** Now, ns (monotonic; virtual in simulation). */
    long nanos();

    /**
     * Waits {@code micros} µs.
     *
     * @throws InterruptedException if interrupted
     */
    void sleepMicros(long micros) throws InterruptedException;

    /**
     * Waits until {@code f} completes and returns its value.
     *
     * @throws ExecutionException   if {@code f} completed exceptionally
     * @throws InterruptedException if interrupted
     */
    <T> T await(CompletableFuture<T> f) throws InterruptedException, ExecutionException;

    /** The real clock: {@link System#nanoTime()}, {@link Thread#sleep}, {@link CompletableFuture#get()}. */
    TuningClock REAL = new TuningClock() {
        @Override
        public long nanos() {
            return System.nanoTime();
        }

        @Override
        public void sleepMicros(long micros) throws InterruptedException {
            if (micros > 0) {
                Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
            }
        }

        @Override
        public <T> T await(CompletableFuture<T> f) throws InterruptedException, ExecutionException {
            return f.get();
        }
    };

    /** The virtual clock of the simulation {@code t} runs in; call its methods only on {@code t}. */
    static TuningClock simulated(SimulatedThread t) {
        return new TuningClock() {
            @Override
            public long nanos() {
                return t.nowNanos();
            }

            @Override
            public void sleepMicros(long micros) throws InterruptedException {
                t.sleepMicros(micros);
            }

            @Override
            public <T> T await(CompletableFuture<T> f) throws InterruptedException, ExecutionException {
                return t.await(f);
            }
        };
    }
}
