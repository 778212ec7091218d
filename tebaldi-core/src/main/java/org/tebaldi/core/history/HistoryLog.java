package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Key;

/**
 * The history one node records (docs/architecture.md, "Verification"): data servers record every read (which version: writer and the
 * writer's write sequence number for that key), every write, and each key's final version order; coordinators
 * record outcomes, and data servers also record the commits they apply (and the aborts they decide when a
 * coordinator fails), so that outcomes survive the loss of a coordinator's log in process mode; duplicates agree
 * and are merged. Appended by one actor; read after the run, once the nodes have stopped.
 * Writer id 0 denotes the initial load.
 *
 * <p>Conventions the checker relies on ({@link History}, {@link SerializabilityChecker}): a transaction's
 * {@code writeSeq} for a key counts 1, 2, ... and the version it leaves in the key's version order is its last
 * write. The initial transaction T0 never logs an outcome (it is always committed) and never logs writes; it is
 * the oldest version of every key, whether or not the version order lists it (a read of writer 0 of a key that
 * was never loaded therefore means "read the key's absence before the first insert"). Ids are formatted with
 * {@link org.tebaldi.core.txn.TxnIds#format(long)}.
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

    /**
     * Records that {@code reader} read the {@code writeSeq}-th write (1-based; any value for T0) of
     * {@code writer} to {@code key}.
     */
    public void read(long reader, Key key, long writer, int writeSeq) {
        reads.add(new Read(reader, key, writer, writeSeq));
    }

    /** Records the {@code writeSeq}-th write (1-based) of {@code writer} to {@code key}. */
    public void write(long writer, Key key, int writeSeq) {
        writes.add(new Write(writer, key, writeSeq));
    }

    /** Records the final outcome of attempt {@code txn}; {@code type} is its transaction type (may be null). */
    public void outcome(long txn, boolean committed, String type) {
        outcomes.add(new Outcome(txn, committed, type));
    }

    /** The committed writers of {@code key} in version order, oldest first (replaces an earlier entry). */
    public void versionOrder(Key key, long[] writers) {
        versionOrders.put(key, writers);
    }

    /** The recorded reads, in recording order (live list). */
    public List<Read> reads() {
        return reads;
    }

    /** The recorded writes, in recording order (live list). */
    public List<Write> writes() {
        return writes;
    }

    /** The recorded outcomes, in recording order (live list). */
    public List<Outcome> outcomes() {
        return outcomes;
    }

    /** The recorded version orders per key, oldest writer first (live map). */
    public Map<Key, long[]> versionOrders() {
        return versionOrders;
    }
}
