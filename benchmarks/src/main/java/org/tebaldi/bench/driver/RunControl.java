package org.tebaldi.bench.driver;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Shared state of a run's client loops: the stop flag, the count of loops still running, and driver failures. */
final class RunControl {
    private volatile boolean stopping;
    private final CountDownLatch running;
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    RunControl(int loops) {
        running = new CountDownLatch(loops);
    }

    /** Whether loops must stop issuing transactions. */
    boolean stopping() {
        return stopping;
    }

    /** Tells every loop to stop after its current transaction. */
    void stop() {
        stopping = true;
    }

    /** A loop ended (called exactly once per loop). */
    void finished() {
        running.countDown();
    }

    /** Records an exception of workload or driver code; the run is then cut short and fails. */
    void fail(Throwable t) {
        failures.add(t);
    }

    List<Throwable> failures() {
        return failures;
    }

    /** Loops still running (does not wait). */
    int running() {
        return (int) running.getCount();
    }

    /** Waits until every loop ended or the timeout passed; returns the loops still running. */
    int await(long timeoutMillis) throws InterruptedException {
        running.await(timeoutMillis, TimeUnit.MILLISECONDS);
        return (int) running.getCount();
    }
}
