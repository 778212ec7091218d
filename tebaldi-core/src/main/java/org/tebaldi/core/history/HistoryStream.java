package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where recording nodes hand over their history while a run goes on, and the {@link IncrementalChecker} that
 * checks it with bounded memory (docs/architecture.md, "Verification"). Each node calls {@link #handOver} from its
 * own thread every period (an empty chunk too: a transaction is complete only once every node handed over after
 * its outcome); the swap of the node's log runs under this stream's lock, so chunk numbers follow the order of
 * the swaps. {@link #check} feeds the queued chunks to the checker and prunes — on a background thread with
 * {@link #startChecking}, or by the caller (simulation). {@link #finish} after the last hand-over of every node
 * gives the verdict.
 */
public final class HistoryStream implements HistoryHandOver, AutoCloseable {
    private record Chunk(int source, HistoryLog log) {
    }

    private final IncrementalChecker checker;
    private final Object checkLock = new Object();
    private List<Chunk> queue = new ArrayList<>();
    private java.util.function.BiConsumer<Integer, HistoryLog> listener;
    private Thread thread;
    private volatile boolean closed;
    private volatile Throwable failure;

    /**
     * @param sources number of nodes that hand over (coordinators and data servers), numbered 0 .. sources-1
     * @throws IllegalArgumentException if {@code sources < 1}
     */
    public HistoryStream(int sources) {
        this.checker = new IncrementalChecker(sources, SerializabilityChecker.DEFAULT_MAX_STORED_PER_TYPE);
    }

    /**
     * Node {@code source} hands over what it recorded: {@code swap} (run under the stream's lock, on the node's
     * thread) returns its log and starts a new one. An empty log is still handed over.
     */
    @Override
    public void handOver(int source, Supplier<HistoryLog> swap) {
        synchronized (this) {
            HistoryLog log = swap.get();
            queue.add(new Chunk(source, log));
            if (listener != null) {
                listener.accept(source, log);
            }
        }
    }

    /**
     * Also passes every chunk, with its source, to {@code l} as it is handed over (under the stream's lock, on the
     * node's thread) — e.g. to keep the whole history for a batch check of the same run. Call before the nodes
     * start.
     */
    public HistoryStream listen(java.util.function.BiConsumer<Integer, HistoryLog> l) {
        this.listener = l;
        return this;
    }

    /** Feeds every chunk handed over so far to the checker, then runs one pruning pass. */
    public void check() {
        List<Chunk> batch;
        synchronized (this) {
            batch = queue;
            queue = new ArrayList<>();
        }
        synchronized (checkLock) {
            for (Chunk c : batch) {
                checker.add(c.source, c.log);
            }
            checker.prune();
        }
    }

    /**
     * Runs {@link #check} every {@code periodMillis} ms on a daemon thread until {@link #finish} or
     * {@link #close}.
     */
    public void startChecking(long periodMillis) {
        thread = new Thread(() -> {
            while (!closed) {
                try {
                    Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                    return;
                }
                try {
                    check();
                } catch (RuntimeException | Error e) {
                    failure = e;
                    return;
                }
            }
        }, "history-check");
        thread.setDaemon(true);
        thread.start();
    }

    /** Transactions the checker holds now. */
    public int held() {
        synchronized (checkLock) {
            return checker.held();
        }
    }

    /** Held transactions without an outcome yet ({@link IncrementalChecker#heldWithoutOutcome()}). */
    public int heldWithoutOutcome() {
        synchronized (checkLock) {
            return checker.heldWithoutOutcome();
        }
    }

    /** What the checker holds, by state ({@link IncrementalChecker#describeHeld()}). */
    public String describeHeld() {
        synchronized (checkLock) {
            return checker.describeHeld();
        }
    }

    /** Most transactions the checker held at once. */
    public int maxHeld() {
        synchronized (checkLock) {
            return checker.maxHeld();
        }
    }

    /**
     * The verdict over the whole run; call once every node handed over its last records (the nodes stopped).
     *
     * @throws IllegalStateException if the background check failed (with its exception as cause)
     * @throws InterruptedException if interrupted while stopping the background thread
     */
    public CheckResult finish() throws InterruptedException {
        stop();
        if (failure != null) {
            throw new IllegalStateException("the history check failed: " + failure, failure);
        }
        check();
        synchronized (checkLock) {
            return checker.finish();
        }
    }

    private void stop() throws InterruptedException {
        closed = true;
        if (thread != null) {
            thread.interrupt();
            thread.join();
        }
    }

    /** Stops the background thread. */
    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
