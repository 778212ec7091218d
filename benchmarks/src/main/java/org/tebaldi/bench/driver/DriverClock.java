package org.tebaldi.bench.driver;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.tebaldi.core.runtime.SimulatedRuntime;

/**
 * Where the client loops read the time and wait for a back-off: the real clock with the driver's timer thread
 * ({@link ClosedLoopDriver}), or a simulation's virtual clock ({@link SimulatedDriver}, docs/simulation.md).
 */
interface DriverClock {
    /** Now, ns (monotonic; virtual in simulation). */
    long nanos();

    /**
     * Runs {@code task} soon, not on the caller's stack.
     *
     * @throws RejectedExecutionException if the driver stopped
     */
    void execute(Runnable task);

    /**
     * Runs {@code task} after {@code delayMicros} µs.
     *
     * @throws RejectedExecutionException if the driver stopped
     */
    void schedule(Runnable task, long delayMicros);

    /** The real clock; tasks run on {@code timer}. */
    static DriverClock real(ScheduledExecutorService timer) {
        return new DriverClock() {
            @Override
            public long nanos() {
                return System.nanoTime();
            }

            @Override
            public void execute(Runnable task) {
                timer.execute(task);
            }

            @Override
            public void schedule(Runnable task, long delayMicros) {
                timer.schedule(task, delayMicros, TimeUnit.MICROSECONDS);
            }
        };
    }

    /** The virtual clock of {@code sim}; tasks run as simulation events outside any node. */
    static DriverClock simulated(SimulatedRuntime sim) {
        return new DriverClock() {
            @Override
            public long nanos() {
                return sim.nowNanos();
            }

            @Override
            public void execute(Runnable task) {
                sim.at(sim.nowMicros(), task);
            }

            @Override
            public void schedule(Runnable task, long delayMicros) {
                sim.at(sim.nowMicros() + delayMicros, task);
            }
        };
    }
}
