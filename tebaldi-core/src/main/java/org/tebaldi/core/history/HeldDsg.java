package org.tebaldi.core.history;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tebaldi.core.history.HeldKey.PendingRead;
import org.tebaldi.core.history.HeldTxn.Edge;
import org.tebaldi.core.history.HeldTxn.Issue;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.TxnIds;

/**
 * The part of Adya's DSG (dissertation §2.2.3) the {@link IncrementalChecker} holds, and how each record of a
 * chunk enters it (docs/architecture.md, "Verification"): outcomes (a first one sets the status, duplicates must
 * agree), writes (per key the highest write sequence number), copied writes ({@link HeldCopies}), reads (a wr edge
 * from the writer — or from the key's newest final version's writer when that one was dropped —, an intermediate
 * or inconsistent read kept as an issue of the reader) and final versions (the ww edge from the previous final
 * version, the rw edges from its readers).
 * Counts committed and aborted transactions, reads and the edges between committed transactions like the batch
 * check. Which transactions and keys can be dropped is {@link IncrementalChecker}'s pruning rule. Not thread-safe.
 */
final class HeldDsg {
    final Long2ObjectOpenHashMap<HeldTxn> txns = new Long2ObjectOpenHashMap<>();
    final Map<Key, HeldKey> keys = new HashMap<>();
    final long[] edgeCounts = new long[EdgeType.values().length];
    int committed;
    int aborted;
    long reads;
    long droppedCount;
    private final ViolationCollector out;
    final DroppedTxns dropped = new DroppedTxns();
    /** Writers known only from copies of their writes. */
    final HeldCopies copies = new HeldCopies(this);
    /** Dropped aborted transactions whose abort the chunk being added logged (that source's late abort). */
    private final LongOpenHashSet lateAborts = new LongOpenHashSet();
    /** Number of the chunk being added. */
    private long chunk;

    HeldDsg(ViolationCollector out) {
        this.out = out;
    }

    /**
     * Adds chunk number {@code c} of {@code source}: outcomes, writes, copied writes, reads, then final versions
     * (within a chunk this order is always safe).
     */
    void add(int source, long c, HistoryLog log) {
        chunk = c;
        for (HistoryLog.Outcome o : log.outcomes()) {
            outcome(o, source);
        }
        for (HistoryLog.Write w : log.writes()) {
            write(w, source);
        }
        for (HistoryLog.Write w : log.copies()) {
            copies.copy(w, c);
        }
        for (HistoryLog.Read r : log.reads()) {
            read(r);
        }
        for (HistoryLog.Final f : log.finals()) {
            finalVersion(f);
        }
        lateAborts.clear();
    }

    /**
     * The held transaction {@code id}, created if not held. One dropped aborted not long ago comes back aborted
     * (its outcome known, complete once every source handed over after this chunk): a coordinator decides an abort
     * without waiting for the replies of the operations in flight, so a data server may log one of them after the
     * transaction was complete and dropped (ReconfigurationSimTest: a partial restart force-aborts a transaction
     * whose read waits for a lock, and the lock is granted before the abort request arrives). Its reads cannot be
     * on a cycle (it is not committed); a write of it stays held until its source logs the abort, for the aborted
     * reads of it. Long after the drop, the id is not remembered: it is held without an outcome until the data
     * server's own abort record of it arrives (a data server logs one for every transaction that read or wrote
     * there), and then counted as aborted a second time.
     */
    HeldTxn txn(long id) {
        HeldTxn t = txns.get(id);
        if (t == null) {
            if (dropped.aborted(id)) {
                t = new HeldTxn(id, HeldTxn.ABORTED);
                t.type = dropped.abortedType(id);
                t.outcomeChunk = chunk;
            } else {
                t = new HeldTxn(id, HeldTxn.UNKNOWN);
            }
            txns.put(id, t);
        }
        return t;
    }

    /** Drops {@code t}: it is checked and forgotten. */
    void drop(HeldTxn t) {
        txns.remove(t.id);
        t.drop();
        dropped.add(t);
        droppedCount++;
    }

    /** After pass {@code pass}: forgets the keys no held transaction needs, and old dropped ids. */
    void sweep(int pass) {
        Iterator<HeldKey> it = keys.values().iterator();
        while (it.hasNext()) {
            if (it.next().sweep()) {
                it.remove();
            }
        }
        dropped.passed(pass);
    }

    private static long bit(int source) {
        return 1L << source;
    }

    private void outcome(HistoryLog.Outcome o, int source) {
        if (o.txn() == 0L) {
            String p = "an outcome (" + (o.committed() ? "committed" : "aborted")
                    + ") was logged for T0, which is always committed; ignored";
            out.record(() -> p);
            return;
        }
        byte s = o.committed() ? HeldTxn.COMMITTED : HeldTxn.ABORTED;
        HeldTxn n = txns.get(o.txn());
        if (n == null && dropped.contains(o.txn())) {
            if (s == HeldTxn.ABORTED) {
                lateAborts.add(o.txn());
            }
            return;
        }
        n = txn(o.txn());
        n.copiedIn = -1;
        if (s == HeldTxn.ABORTED) {
            n.abortSources |= bit(source);
        }
        if (n.status != HeldTxn.UNKNOWN) {
            if (n.status != s || !Objects.equals(n.type, o.type())) {
                String p = "conflicting outcomes for " + TxnIds.format(o.txn()) + ": " + HeldTxn.statusName(n.status)
                        + " " + n.type + " vs " + HeldTxn.statusName(s) + " " + o.type() + "; kept the first";
                out.record(() -> p, o.txn());
            }
            return;
        }
        n.status = s;
        n.type = o.type();
        n.outcomeChunk = chunk;
        if (s == HeldTxn.COMMITTED) {
            committed++;
            if (n.out != null) {
                for (Edge e : n.out) {
                    if (e.to().committed()) {
                        edgeCounts[e.type().ordinal()]++;
                    }
                }
            }
            if (n.in != null) {
                for (Edge e : n.in) {
                    if (e.from().committed()) {
                        edgeCounts[e.type().ordinal()]++;
                    }
                }
            }
        } else {
            aborted++;
            if (n.writes != null) {
                for (Key k : n.writes.keySet()) {
                    HeldKey ks = keys.get(k);
                    if (ks != null && ks.pending != null) {
                        ks.pending.remove(n.id);
                    }
                }
            }
        }
    }

    private void write(HistoryLog.Write w, int source) {
        HeldTxn n = txn(w.writer());
        n.copiedIn = -1;
        n.writeSources |= bit(source);
        if (lateAborts.contains(w.writer())) {
            n.abortSources |= bit(source);
        }
        writeSeq(n, w);
    }

    /** Keeps {@code w}'s write sequence number as {@code n}'s highest on its key (a new key's version: not final). */
    void writeSeq(HeldTxn n, HistoryLog.Write w) {
        if (w.writeSeq() < 1) {
            out.record(() -> TxnIds.format(w.writer()) + " logged write #" + w.writeSeq() + " to " + w.key()
                    + " (write sequence numbers start at 1); ignored", w.writer());
            return;
        }
        if (n.writes == null) {
            n.writes = new HashMap<>(4);
        }
        Integer prev = n.writes.get(w.key());
        if (prev == null) {
            n.writes.put(w.key(), w.writeSeq());
            n.unfinal++;
        } else if (prev >= 0 && prev < w.writeSeq()) {
            n.writes.put(w.key(), w.writeSeq());
        }
    }

    /**
     * Whether the copied write {@code w} ({@link HistoryLog#copy}) is known at once to be of a committed transaction
     * already checked and dropped — one dropped recently and not aborted, or the writer of its key's newest final
     * version (burn seed 41). A dropped committed transaction was complete, every write of it in; taken as a new
     * record the copy would bring it back without an outcome, held for ever. Other copies of writers not held are
     * {@link HeldCopies}'.
     */
    boolean copyOfDroppedWrite(HistoryLog.Write w) {
        long id = w.writer();
        if (txns.containsKey(id)) {
            return false;
        }
        if (dropped.contains(id)) {
            return !dropped.aborted(id);
        }
        HeldKey ks = keys.get(w.key());
        return ks != null && ks.tailId == id && ks.tail == HeldTxn.GONE;
    }

    void edge(HeldTxn from, HeldTxn to, EdgeType type, Key key) {
        if (from == to) {
            return;
        }
        Edge e = new Edge(from, to, type, key);
        if (from != HeldTxn.T0 && from != HeldTxn.GONE && !from.dropped) {
            from.addOut(e);
        }
        to.addIn(e);
        if (from.committed() && to.committed()) {
            edgeCounts[type.ordinal()]++;
        }
    }

    private HeldKey keyState(Key k, long tailId, HeldTxn tail) {
        return keys.computeIfAbsent(k, x -> new HeldKey(tailId, tail));
    }

    private void read(HistoryLog.Read r) {
        reads++;
        long rid = r.reader();
        long wid = r.writer();
        Key k = r.key();
        if (rid == 0L) {
            out.record(() -> "T0 logged a read of " + k + "; ignored", 0L);
            return;
        }
        HeldTxn reader = txn(rid);
        reader.copiedIn = -1;
        if (rid == wid) {
            return;
        }
        int seq = r.writeSeq();
        HeldKey ks = keys.get(k);
        HeldTxn held = wid == 0L ? null : txns.get(wid);
        // known only from copies of other keys: as little known here as a writer not held (HeldCopies)
        HeldTxn w = held != null && held.copiedIn >= 0 && (held.writes == null || !held.writes.containsKey(k))
                ? null : held;
        if (ks != null && ks.tailId == HeldKey.UNKNOWN_TAIL && w == null) {
            ks.tailId = wid;
            ks.tail = wid == 0L ? HeldTxn.T0 : HeldTxn.GONE;
            ks.tailSeq = seq;
        }
        if (ks != null && ks.tailId == wid) {
            edge(ks.tail, reader, EdgeType.WR, k);
            if (wid != 0L) {
                checkSeq(reader, ks.tail.id == wid ? ks.tail.label() : TxnIds.format(wid), wid, k, seq, ks.tailSeq);
            }
            ks.tailReaders.add(reader);
            return;
        }
        if (w != null) {
            Integer last = w.writes == null ? null : w.writes.get(k);
            if (w.status == HeldTxn.ABORTED) {
                edge(w, reader, EdgeType.WR, k);
            } else if (last == null) {
                edge(w, reader, EdgeType.WR, k);
                issue(reader, new Issue(ViolationType.INCONSISTENT_RECORD, () -> "committed " + reader.label()
                        + " read " + k + " write #" + seq + " of " + w.label()
                        + ", but no write of it to that key was logged", wid));
            } else if (last >= 0) {
                edge(w, reader, EdgeType.WR, k);
                HeldKey s = keyState(k, HeldKey.UNKNOWN_TAIL, HeldTxn.GONE);
                if (s.pending == null) {
                    s.pending = new HashMap<>(4);
                }
                s.pending.computeIfAbsent(wid, x -> new ArrayList<>(2)).add(new PendingRead(reader, seq));
            } else {
                superseded(reader, k, wid, seq, ks);
            }
            return;
        }
        if (ks == null) {
            ks = keyState(k, wid, wid == 0L ? HeldTxn.T0 : HeldTxn.GONE);
            ks.tailSeq = seq;
            edge(ks.tail, reader, EdgeType.WR, k);
            ks.tailReaders.add(reader);
            return;
        }
        superseded(reader, k, wid, seq, ks);
    }

    /** Keeps {@code i} for {@code reader}'s resolution, or reports it now if the reader is resolved committed. */
    private void issue(HeldTxn reader, Issue i) {
        if (!reader.resolved) {
            reader.issue(i);
        } else if (reader.committed()) {
            out.report(i.type(), () -> new Violation(i.type(), i.message().get(), List.of(reader.id, i.writer()),
                    List.of()));
        }
    }

    void superseded(HeldTxn reader, Key k, long wid, int seq, HeldKey ks) {
        long tail = ks == null ? 0L : ks.tailId;
        issue(reader, new Issue(ViolationType.INCONSISTENT_RECORD, () -> "committed " + reader.label() + " read "
                + k + " write #" + seq + " of " + TxnIds.format(wid) + ", a version older than the key's final "
                + "version by " + TxnIds.format(tail) + " (or one never written)", wid));
    }

    void checkSeq(HeldTxn reader, String writerLabel, long wid, Key k, int seq, int last) {
        if (seq < 1 || seq > last) {
            issue(reader, new Issue(ViolationType.INCONSISTENT_RECORD, () -> "committed " + reader.label() + " read "
                    + k + " write #" + seq + " of " + writerLabel + ", whose logged writes to that key are #1..#"
                    + last, wid));
        } else if (seq < last) {
            issue(reader, new Issue(ViolationType.INTERMEDIATE_READ, () -> "intermediate read: committed "
                    + reader.label() + " read " + k + " write #" + seq + " of " + writerLabel
                    + ", whose final write to that key is #" + last, wid));
        }
    }

    private void finalVersion(HistoryLog.Final f) {
        Key k = f.key();
        long wid = f.writer();
        HeldKey ks = keys.get(k);
        if (wid == 0L) {
            if (ks != null && ks.tailId > 0L) {
                long tail = ks.tailId;
                out.record(() -> "version order of " + k + " lists T0 after " + TxnIds.format(tail)
                        + "; the initial version must be the oldest", 0L);
            }
            return;
        }
        copies.settleReadersOf(ks);
        HeldTxn w = txns.get(wid);
        if (w != null) {
            w.copiedIn = -1;
        }
        if (w == null || w.status == HeldTxn.ABORTED) {
            String what = w == null ? "which is not held (never written, or listed twice)" : "which aborted";
            out.record(() -> "version order of " + k + " lists " + TxnIds.format(wid) + ", " + what, wid);
            return;
        }
        Integer last = w.writes == null ? null : w.writes.get(k);
        if (last == null) {
            out.record(() -> "version order of " + k + " lists " + w.label()
                    + ", but no write of it to that key was logged", wid);
            return;
        }
        if (last < 0) {
            out.record(() -> "version order of " + k + " lists " + w.label() + " twice", wid);
            return;
        }
        if (ks == null) {
            ks = keyState(k, HeldKey.UNKNOWN_TAIL, HeldTxn.GONE);
        }
        edge(ks.tail, w, EdgeType.WW, k);
        for (HeldTxn r : ks.tailReaders) {
            edge(r, w, EdgeType.RW, k);
        }
        ks.tailReaders = new ArrayList<>();
        List<PendingRead> pr = ks.pending == null ? null : ks.pending.remove(wid);
        if (pr != null) {
            for (PendingRead p : pr) {
                checkSeq(p.reader(), w.label(), wid, k, p.writeSeq(), last);
                ks.tailReaders.add(p.reader());
            }
        }
        ks.tailId = wid;
        ks.tail = w;
        ks.tailSeq = last;
        w.writes.put(k, -last);
        w.unfinal--;
    }
}
