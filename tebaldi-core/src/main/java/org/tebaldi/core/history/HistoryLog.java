package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Key;

/**
 * The history one node records (DESIGN.md §10): data servers record every read (which version: writer and the
 * writer's write sequence number for that key), every write, and each key's final version order; coordinators
 * record outcomes. Appended by one actor; read after the run, once the nodes have stopped.
 * Writer id 0 denotes the initial load.
 */
public final class HistoryLog {
    /** {@code reader} read the {@code writeSeq}-th write of {@code writer} to {@code key}. */
    public record Read(long reader, Key key, long writer, int writeSeq) {
    }

    /** {@code writer} wrote {@code key} for the {@code writeSeq}-th time. */
    public record Write(long writer, Key key, int writeSeq) {
    }

    /** Final outcome of a transaction attempt. */
    public record Outcome(long txn, boolean committed, String type) {
    }

    private final List<Read> reads = new ArrayList<>();
    private final List<Write> writes = new ArrayList<>();
    private final List<Outcome> outcomes = new ArrayList<>();
    private final Map<Key, long[]> versionOrders = new LinkedHashMap<>();

    public void read(long reader, Key key, long writer, int writeSeq) {
        reads.add(new Read(reader, key, writer, writeSeq));
    }

    public void write(long writer, Key key, int writeSeq) {
        writes.add(new Write(writer, key, writeSeq));
    }

    public void outcome(long txn, boolean committed, String type) {
        outcomes.add(new Outcome(txn, committed, type));
    }

    /** The committed writers of {@code key} in version order, oldest first (replaces an earlier entry). */
    public void versionOrder(Key key, long[] writers) {
        versionOrders.put(key, writers);
    }

    public List<Read> reads() {
        return reads;
    }

    public List<Write> writes() {
        return writes;
    }

    public List<Outcome> outcomes() {
        return outcomes;
    }

    public Map<Key, long[]> versionOrders() {
        return versionOrders;
    }
}
