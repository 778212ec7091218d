package org.tebaldi.server.durability;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.tebaldi.core.runtime.cost.HandlerUnits;

/**
 * A {@link LogStore} that gathers a data server's unsynced, callback-free writes — the precommit logs of
 * asynchronous mode and every commit and abort record — and hands them to the wrapped store as one write, at most
 * {@code flushMicros} µs after the first of them or once {@code maxRecords} are waiting (docs/cluster.md,
 * "Durability, recovery and version garbage collection", "Gathered writes"). Without it every record cost the data
 * server a hand-over that woke the store's writer thread, twice per transaction (once for the precommit, once for
 * the outcome), and the writer formed about one group per transaction.
 *
 * <p>Order is kept: any other request — a synced write, a write with a callback, a load, a read — first hands the
 * gathered records over, so the store sees every record in the order the data server issued it. Nothing the
 * protocol relies on changes (dissertation §4.5.4): an unsynced write is not durable before the synced
 * {@link LogRecord.Persisted} record of its epoch, which is issued after it and so flushes it first; a crash loses
 * at most what an unsynced write could lose anyway, never a record of a persisted epoch.
 *
 * <p>{@code awaitWritten} waits for the wrapped store only: records still gathered are not handed over (it is
 * called from another thread, after loading). Owner thread only (the data server's) for {@code write}, {@code load}
 * and {@code read}; {@link #close} may run on another thread once the data server stopped. The flush timer runs
 * through the data server's timer, so the wrapper works the same under the simulated runtime.
 */
public final class BatchingLogStore extends ForwardingLogStore {
    /** Default gathering window, µs: well under an epoch (1 s by default), long enough to gather several commits. */
    public static final long DEFAULT_FLUSH_MICROS = 1_000;
    /** Default number of gathered records that flushes at once. */
    public static final int DEFAULT_MAX_RECORDS = 512;
    /** The flush timer's kind ({@link HandlerUnits#kind}): charged and timed as {@code "ds timer/log-flush"}. */
    public static final String TIMER_KIND = "log-flush";

    private final long flushMicros;
    private final int maxRecords;
    private final DelayedLogStore.Timer timer;
    private List<LogRecord> gathered = new ArrayList<>();
    private boolean armed;
    private long flushes;

    /**
     * @param flushMicros the longest a gathered record waits, µs (at least 1)
     * @param maxRecords  gathered records that flush at once (at least 1)
     * @param timer       the data server's timer
     * @throws IllegalArgumentException if {@code flushMicros} or {@code maxRecords} is not positive
     */
    public BatchingLogStore(LogStore inner, long flushMicros, int maxRecords, DelayedLogStore.Timer timer) {
        super(inner);
        if (flushMicros <= 0 || maxRecords <= 0) {
            throw new IllegalArgumentException("flushMicros and maxRecords must be positive, got " + flushMicros
                    + " µs and " + maxRecords);
        }
        this.flushMicros = flushMicros;
        this.maxRecords = maxRecords;
        this.timer = timer;
    }

    /**
     * Gathers an unsynced write without a callback; hands everything gathered over first, then this write, when it
     * is synced or has a callback.
     */
    @Override
    public void write(List<LogRecord> records, boolean sync, Runnable done) {
        if (sync || done != null) {
            flush();
            inner.write(records, sync, done);
            return;
        }
        gathered.addAll(records);
        if (gathered.size() >= maxRecords) {
            flush();
        } else if (!armed && !gathered.isEmpty()) {
            armed = true;
            timer.schedule(flushMicros, () -> {
                // its own timer kind: the simulated cluster charges it what a flush costs, not what the server's
                // periodic timers cost on average (docs/simulation.md, "Timer kinds")
                HandlerUnits.kind(TIMER_KIND);
                armed = false;
                flush();
            });
        }
    }

    /** Hands the gathered records to the wrapped store as one unsynced write (nothing if none are gathered). */
    public void flush() {
        if (gathered.isEmpty()) {
            return;
        }
        List<LogRecord> out = gathered;
        gathered = new ArrayList<>(Math.max(16, out.size()));
        flushes++;
        inner.write(out, false, null);
    }

    /** Writes handed to the wrapped store by {@link #flush} so far. */
    public long flushes() {
        return flushes;
    }

    @Override
    public void load(List<LogRecord.Data> rows) {
        flush();
        inner.load(rows);
    }

    @Override
    public void loadEncoded(List<LogRecord> rows) {
        flush();
        inner.loadEncoded(rows);
    }

    @Override
    public void read(Consumer<List<LogRecord.Data>> dataChunk, Consumer<LogContents> done) {
        flush();
        inner.read(dataChunk, done);
    }

    /** Hands the gathered records over (the data server stopped), then closes the wrapped store. */
    @Override
    public void close() {
        flush();
        inner.close();
    }
}
