package org.tebaldi.server.durability;

import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link LogStore} that hands every request to a wrapped store: the base of the wrappers that change one aspect of
 * a store ({@link DelayedLogStore}: when synced writes complete; {@link BatchingLogStore}: how writes are grouped;
 * {@code replica.ReplicatedLogStore}: where writes are copied to) and forward the rest unchanged.
 */
public abstract class ForwardingLogStore implements LogStore {
    /** The wrapped store. */
    protected final LogStore inner;

    protected ForwardingLogStore(LogStore inner) {
        this.inner = inner;
    }

    @Override
    public boolean hadData() {
        return inner.hadData();
    }

    @Override
    public void write(List<LogRecord> records, boolean sync, Runnable done) {
        inner.write(records, sync, done);
    }

    @Override
    public void load(List<LogRecord.Data> rows) {
        inner.load(rows);
    }

    @Override
    public void loadEncoded(List<LogRecord> rows) {
        inner.loadEncoded(rows);
    }

    @Override
    public void read(Consumer<List<LogRecord.Data>> dataChunk, Consumer<LogContents> done) {
        inner.read(dataChunk, done);
    }

    @Override
    public void awaitWritten() throws InterruptedException {
        inner.awaitWritten();
    }

    @Override
    public long sizeBytes() {
        return inner.sizeBytes();
    }

    @Override
    public void close() {
        inner.close();
    }
}
