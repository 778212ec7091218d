package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.TxnIds;

/**
 * A transaction the {@link IncrementalChecker} holds (docs/architecture.md, "Verification"): its outcome as far as
 * known, the chunk of its first outcome, the sources that logged its writes and its abort, its written keys with
 * whether each version is final yet, its DSG edges in both directions (Adya's direct serialization graph,
 * dissertation §2.2.3) and the read problems to report if it commits. Not thread-safe.
 */
final class HeldTxn {
    static final byte UNKNOWN = 0;
    static final byte COMMITTED = 1;
    static final byte ABORTED = 2;

    /** The initial transaction: committed, never held. */
    static final HeldTxn T0 = new HeldTxn(0L, COMMITTED);
    /** A committed writer that was dropped (a key's newest final version once its state was dropped). */
    static final HeldTxn GONE = new HeldTxn(-1L, COMMITTED);

    /** An edge of the DSG; {@code from} may be {@link #T0} or {@link #GONE}. */
    record Edge(HeldTxn from, HeldTxn to, EdgeType type, Key key) {
    }

    /** A read anomaly or record problem of a reader, reported if the reader commits. */
    record Issue(ViolationType type, Supplier<String> message, long writer) {
    }

    final long id;
    /** {@link #UNKNOWN}, {@link #COMMITTED} or {@link #ABORTED}. */
    byte status;
    /** Transaction type from its outcome record (may be null). */
    String type;
    /** Number of the chunk with its first outcome; -1 while unknown. */
    long outcomeChunk = -1;
    /** Complete and, if committed, its read problems reported (or waiting for a writer's outcome: not yet). */
    boolean resolved;
    boolean dropped;
    /** Sources that logged a write of this transaction, and those that logged its abort (bit i: source i). */
    long writeSources;
    long abortSources;
    /** Written keys: the highest write sequence number logged, negative once the version is final. */
    Map<Key, Integer> writes;
    /** Written keys whose version is not final yet. */
    int unfinal;
    /**
     * While not negative: known only from copies of its writes ({@link HistoryLog#copy}), the first in this chunk
     * ({@link HeldCopies}); any record of its own (an outcome, a write, a read, a final version) sets it to -1.
     */
    long copiedIn = -1;
    List<Edge> out;
    List<Edge> in;
    List<Issue> issues;
    /** Scratch of a pass: visited stamp, dense index. */
    int mark;
    int dense;

    HeldTxn(long id, byte status) {
        this.id = id;
        this.status = status;
    }

    boolean committed() {
        return status == COMMITTED;
    }

    /**
     * Sealed: committed, complete with its read problems resolved, and every version final — no edge can come
     * into it any more.
     */
    boolean sealed() {
        return status == COMMITTED && resolved && unfinal == 0;
    }

    void issue(Issue i) {
        if (issues == null) {
            issues = new ArrayList<>(2);
        }
        issues.add(i);
    }

    void addOut(Edge e) {
        if (out == null) {
            out = new ArrayList<>(4);
        }
        out.add(e);
    }

    void addIn(Edge e) {
        if (in == null) {
            in = new ArrayList<>(4);
        }
        in.add(e);
    }

    /** Forgets its edges and writes once dropped. */
    void drop() {
        dropped = true;
        out = null;
        in = null;
        writes = null;
    }

    /** E.g. {@code T1.5(NewOrder)}. */
    String label() {
        return type == null ? TxnIds.format(id) : TxnIds.format(id) + "(" + type + ")";
    }

    static String statusName(byte s) {
        return s == COMMITTED ? "COMMITTED" : s == ABORTED ? "ABORTED" : "UNFINISHED";
    }
}
