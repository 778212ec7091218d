package org.tebaldi.core.cc;

import org.tebaldi.core.runtime.Cancellable;

/**
 * A wait that ends exactly once (docs/architecture.md, "Waiting"): either the awaited event happens and the waiter
 * calls {@link #complete()}, or the timeout fires first and runs the timeout action. Created by
 * {@link CcServices#awaitOrTimeout}; the timer is cancelled when the wait completes or is cancelled. Used for every
 * bounded wait of the mechanisms (lock and step waits have their own queues; commit-dependency waits, promise
 * waits, waits for prepared writers and for earlier batches use this). Single-threaded, like the node that owns it.
 */
public final class TimedWait {
    private boolean over;
    private Cancellable timer;

    private TimedWait() {
    }

    /**
     * Starts a wait on {@code node}: {@code onTimeout} runs on the node after {@code timeoutMicros} µs unless the
     * wait ended first.
     */
    static TimedWait start(CcServices node, long timeoutMicros, Runnable onTimeout) {
        TimedWait w = new TimedWait();
        w.timer = node.schedule(timeoutMicros, () -> {
            if (!w.over) {
                w.over = true;
                onTimeout.run();
            }
        });
        return w;
    }

    /**
     * The awaited event happened: ends the wait and cancels its timer.
     *
     * @return true if this call ended the wait (go on); false if it had already ended (timed out, completed or
     *         cancelled) — then the caller must do nothing more
     */
    public boolean complete() {
        if (over) {
            return false;
        }
        over = true;
        timer.cancel();
        return true;
    }

    /** Whether the wait has ended (completed, timed out or cancelled). */
    public boolean over() {
        return over;
    }

    /** Ends the wait without running anything (e.g. the transaction ended meanwhile). */
    public void cancel() {
        if (!over) {
            over = true;
            timer.cancel();
        }
    }
}
