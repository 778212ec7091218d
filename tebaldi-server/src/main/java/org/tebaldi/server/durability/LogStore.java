package org.tebaldi.server.durability;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.tebaldi.core.model.Catalog;

/**
 * A data server's persistent key-value store for its logs and data (dissertation §4.5.4: Tebaldi "outsources"
 * persistence to a key-value store): {@link RocksLogStore} in real runs, {@link MemoryLogStore} in tests and under
 * simulation. Requests are handled in order; callbacks run on the owning data server's thread through the
 * {@code owner} executor given at open. The data server never blocks on the store.
 */
public interface LogStore extends AutoCloseable {
    /** Opens data server {@code ds}'s store. */
    @FunctionalInterface
    interface Factory {
        /**
         * @param owner runs a callback on the data server's thread
         * @throws IllegalStateException with one clear message if the store cannot be opened
         */
        LogStore open(int ds, Catalog catalog, Executor owner);
    }

    /** A store callback delivered to its data server as a message (never crosses the network). */
    record Callback(Runnable task) implements org.tebaldi.core.runtime.ControlMessage {
    }

    /** Whether the store held data when it was opened (the data server then recovers instead of loading). */
    boolean hadData();

    /**
     * Appends records after everything queued before. {@code sync}: on disk (fsync) before {@code done} runs;
     * otherwise {@code done} runs once the records are written to the store (its write-ahead log, not yet synced).
     * A synced write of no records syncs everything written before it.
     *
     * @param done may be null
     */
    void write(List<LogRecord> records, boolean sync, Runnable done);

    /**
     * Stores initial rows ({@link LogRecord.Data}) in bulk, without the write-ahead log; they are made durable
     * (flushed) before the next synced write completes.
     */
    void load(List<LogRecord.Data> rows);

    /**
     * Stores encoded data rows ({@link LogRecord.Encoded} of the data column family: a primary's initial load as
     * its backup receives it) in bulk, without the write-ahead log, like {@link #load}: they are made durable
     * (flushed) before the next synced write completes. By default an ordinary unsynced write.
     */
    default void loadEncoded(List<LogRecord> rows) {
        write(rows, false, null);
    }

    /**
     * Recovery, step 1: reads everything, after every queued request. Data rows arrive in chunks (in key order),
     * then the rest; both on the owner's thread.
     */
    void read(Consumer<List<LogRecord.Data>> dataChunk, Consumer<LogContents> done);

    /**
     * Blocks the calling thread (never a data server's) until every request queued so far is written, initial rows
     * flushed — e.g. after loading, so that the store's work does not spill into the measured run.
     */
    void awaitWritten() throws InterruptedException;

    /** Bytes on disk (0 if unknown) — for reports. */
    default long sizeBytes() {
        return 0;
    }

    /** Finishes queued requests and closes. */
    @Override
    void close();
}
