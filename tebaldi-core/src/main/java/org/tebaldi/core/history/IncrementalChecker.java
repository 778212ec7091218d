package org.tebaldi.core.history;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.TxnIds;

/**
 * The serializability check of {@link SerializabilityChecker} (Adya's DSG, dissertation §2.2.3) on a history that
 * arrives in chunks while the run goes on, holding only what can still join a cycle, so that memory stays bounded
 * on a run of any length (docs/architecture.md, "Verification"). Same violations: G1a aborted reads, G1b
 * intermediate reads, G1c and G2 cycles (one per non-trivial strongly connected component), and record
 * inconsistencies.
 *
 * <p><b>Input.</b> Every recording node ({@code source}, 0 .. sources-1) hands over what it recorded since its last
 * hand-over as one {@link HistoryLog} chunk ({@link #add}); chunks are numbered in hand-over order, and a node's
 * hand-over must happen after every record of it that it contains. Data servers report each key's version order
 * as it becomes final ({@link HistoryLog#finalVersion}: a committed version before the newest settled one, i.e.
 * nothing can be ordered before it any more — the storage's GC watermark, dissertation §4.5.3); the last chunks
 * (after the run) report the remaining committed versions. Assumptions, all true of the data servers and
 * coordinators: a committed transaction's reads and writes are recorded before its outcome is recorded anywhere
 * (the coordinator decides a commit after every reply); an operation of an aborted transaction may be recorded
 * after its abort (the coordinator aborts without waiting for the operations in flight), and then the data server
 * that recorded it records the abort too; a node's records appear in its chunks in the order recorded; a read of a
 * version is recorded at the data server of the key before the next version of the key is reported final there.
 *
 * <p><b>Pruning rule</b> (sound: nothing dropped can be on a cycle found later). A transaction is <i>complete</i>
 * once every source has handed over a chunk after the chunk with its first outcome: all its reads and writes have
 * arrived. A committed transaction T is <i>sealed</i> once it is complete, every writer it read from is resolved,
 * and each of its versions is final: then no transaction can get an edge <i>into</i> T any more — no wr (its reads
 * are in), no ww (the version before T's on each key is known and nothing can be placed between), no rw (every
 * read of the version T overwrote was recorded before T's version became final, so is in). A sealed T whose
 * ancestors (transitively along incoming edges, including edges out of transactions whose outcome is not known
 * yet) are all sealed is <i>final</i>: every cycle through it lies among final transactions and is already in the
 * graph. Each {@link #prune} pass checks the graph of the final transactions (their strongly connected
 * components are complete) and drops them. Per key only the newest final version's writer, the readers of that
 * version (their future rw edge to the next version) and the readers of versions not yet final are kept, and a
 * key's state goes once its newest final writer was dropped and no held transaction read it. An aborted
 * transaction is dropped once it is complete and every source that logged a write of it logged its abort too (a
 * data server logs the abort when it removes the versions): no reader can observe them any more, and every read
 * of them was logged before. An operation of it logged later brings it back, aborted ({@link #node}); it is
 * dropped again by the same rule. What is not caught once its state is dropped: a read of a
 * version older than the key's newest final version arriving after that version's writer was dropped (a store
 * that served a pruned version), which would need the whole version order.
 *
 * <p>Not thread-safe; {@link HistoryStream} feeds it from the nodes' threads. Memory is proportional to the held
 * transactions, their edges and the held keys ({@link #held()}, {@link #heldKeys()}); a pass is linear in them.
 */
public final class IncrementalChecker {
    /** Most sources: each is a bit of a transaction's write and abort masks. */
    public static final int MAX_SOURCES = 64;
    /** Passes the ids of dropped transactions are remembered, so that a late duplicate outcome is not counted. */
    static final int DROPPED_KEPT_PASSES = 50;

    private static final byte UNKNOWN = 0;
    private static final byte COMMITTED = 1;
    private static final byte ABORTED = 2;

    /** An edge of the DSG; {@code from} may be {@link #T0} or {@link #GONE}. */
    private record Edge(Node from, Node to, EdgeType type, Key key) {
    }

    /** A read anomaly or record problem of a reader, reported if the reader commits. */
    private record Issue(ViolationType type, Supplier<String> message, long writer) {
    }

    /** A read of a version not yet final: checked against the version's write sequence number once final. */
    private record PendingRead(Node reader, int writeSeq) {
    }

    private static final class Node {
        final long id;
        byte status;
        String type;
        long outcomeChunk = -1;
        boolean resolved;
        boolean dropped;
        /** Sources that logged a write of this transaction, and those that logged its abort. */
        long writeSources;
        long abortSources;
        /** Written keys: the highest write sequence number logged, negative once the version is final. */
        Map<Key, Integer> writes;
        int unfinal;
        List<Edge> out;
        List<Edge> in;
        List<Issue> issues;
        int mark;
        int dense;

        Node(long id, byte status) {
            this.id = id;
            this.status = status;
        }

        boolean committed() {
            return status == COMMITTED;
        }

        void issue(Issue i) {
            if (issues == null) {
                issues = new ArrayList<>(2);
            }
            issues.add(i);
        }

        String label() {
            return type == null ? TxnIds.format(id) : TxnIds.format(id) + "(" + type + ")";
        }
    }

    private static final class KeyState {
        long tailId;
        Node tail;
        int tailSeq;
        List<Node> tailReaders = new ArrayList<>();
        Map<Long, List<PendingRead>> pending;
    }

    /** The initial transaction: committed, never held. */
    private static final Node T0 = new Node(0L, COMMITTED);
    /** Tail id of a key whose newest final version is not known here: T0's or that of a dropped writer. */
    private static final long UNKNOWN_TAIL = -1L;
    /** A committed writer that was dropped (a key's newest final version once its state was dropped). */
    private static final Node GONE = new Node(-1L, COMMITTED);

    private final int sources;
    private final long[] lastChunk;
    private final ViolationCollector out;
    private final Long2ObjectOpenHashMap<Node> nodes = new Long2ObjectOpenHashMap<>();
    private final Map<Key, KeyState> keys = new HashMap<>();
    private final long[] edgeCounts = new long[EdgeType.values().length];
    private LongOpenHashSet droppedNow = new LongOpenHashSet();
    private LongOpenHashSet droppedBefore = new LongOpenHashSet();
    /** The dropped ids above that had aborted, with their type (a late operation of one brings it back aborted). */
    private Long2ObjectOpenHashMap<String> abortedNow = new Long2ObjectOpenHashMap<>();
    private Long2ObjectOpenHashMap<String> abortedBefore = new Long2ObjectOpenHashMap<>();
    /** Dropped aborted transactions whose abort the chunk being added logged (its source's late abort). */
    private final LongOpenHashSet lateAborts = new LongOpenHashSet();
    private long chunk;
    /** Number of the chunk being added. */
    private long current;
    private int pass;
    private int committed;
    private int aborted;
    private long reads;
    private int maxHeld;
    private long dropped;

    /**
     * @param sources          number of nodes that hand over chunks (each must hand over regularly, even empty
     *                         chunks, or nothing becomes complete)
     * @param maxStoredPerType violations of each type kept in the result (all are counted)
     * @throws IllegalArgumentException if {@code sources < 1} or {@code maxStoredPerType < 0}
     */
    public IncrementalChecker(int sources, int maxStoredPerType) {
        if (sources < 1 || sources > MAX_SOURCES || maxStoredPerType < 0) {
            throw new IllegalArgumentException("need 1 <= sources <= " + MAX_SOURCES
                    + " and maxStoredPerType >= 0: " + sources + ", " + maxStoredPerType);
        }
        this.sources = sources;
        this.lastChunk = new long[sources];
        java.util.Arrays.fill(lastChunk, -1);
        this.out = new ViolationCollector(maxStoredPerType);
    }

    /**
     * Adds the records source {@code source} handed over since its previous chunk: outcomes, writes, reads, then
     * final versions (within a chunk this order is always safe).
     *
     * @throws IllegalArgumentException if {@code source} is out of range
     */
    public void add(int source, HistoryLog log) {
        if (source < 0 || source >= sources) {
            throw new IllegalArgumentException("source " + source + " not in 0.." + (sources - 1));
        }
        long c = chunk++;
        current = c;
        lastChunk[source] = c;
        for (HistoryLog.Outcome o : log.outcomes()) {
            outcome(o, c, source);
        }
        for (HistoryLog.Write w : log.writes()) {
            write(w, source);
        }
        for (HistoryLog.Read r : log.reads()) {
            read(r);
        }
        for (HistoryLog.Final f : log.finals()) {
            finalVersion(f);
        }
        lateAborts.clear();
        maxHeld = Math.max(maxHeld, nodes.size());
    }

    /** Transactions held now. */
    public int held() {
        return nodes.size();
    }

    /**
     * Held transactions without an outcome yet: each keeps every transaction that depends on it held, so once the
     * run is quiet this must be 0 (after the run, they are reported unfinished).
     */
    public int heldWithoutOutcome() {
        int n = 0;
        for (Node t : nodes.values()) {
            n += t.status == UNKNOWN ? 1 : 0;
        }
        return n;
    }

    /** Most transactions held at once so far. */
    public int maxHeld() {
        return maxHeld;
    }

    /**
     * What is held and why, for diagnosis: held transactions by state (no outcome yet — with the lowest such id,
     * which pins every transaction that depends on it —, aborted, not complete, waiting for writers' outcomes,
     * versions not final, sealed but depending on an unsealed one), each source's last chunk number, held keys.
     */
    public String describeHeld() {
        int unknown = 0;
        int incomplete = 0;
        int waiting = 0;
        int unfinal = 0;
        int sealedUnsafe = 0;
        int abortedHeld = 0;
        long complete = Long.MAX_VALUE;
        for (long l : lastChunk) {
            complete = Math.min(complete, l);
        }
        Node oldestUnknown = null;
        for (Node n : nodes.values()) {
            if (n.status == UNKNOWN) {
                unknown++;
                if (oldestUnknown == null || n.id < oldestUnknown.id) {
                    oldestUnknown = n;
                }
            } else if (n.status == ABORTED) {
                abortedHeld++;
            } else if (n.outcomeChunk >= complete) {
                incomplete++;
            } else if (!n.resolved) {
                waiting++;
            } else if (n.unfinal > 0) {
                unfinal++;
            } else {
                sealedUnsafe++;
            }
        }
        return "held " + nodes.size() + ": unknown " + unknown + " (oldest " + (oldestUnknown == null ? "-"
                : oldestUnknown.label() + " reads-in " + (oldestUnknown.in == null ? 0 : oldestUnknown.in.size())
                + " writes " + (oldestUnknown.writes == null ? 0 : oldestUnknown.writes.size())) + "), aborted "
                + abortedHeld + ", incomplete " + incomplete + ", waiting for writers " + waiting
                + ", versions not final " + unfinal + ", sealed but below an unsealed one " + sealedUnsafe
                + "; last chunks " + java.util.Arrays.toString(lastChunk) + "; keys " + keys.size();
    }

    /** Keys with state held now. */
    public int heldKeys() {
        return keys.size();
    }

    /** Transactions dropped so far (checked and forgotten). */
    public long droppedCount() {
        return dropped;
    }

    /**
     * The held transaction {@code id}, created if not held. One dropped aborted not long ago comes back aborted
     * (its outcome known, complete once every source handed over after this chunk): a coordinator decides an
     * abort without waiting for the replies of the operations in flight, so a data server may log one of them
     * after the transaction was complete and dropped (ReconfigurationSimTest: a partial restart force-aborts a
     * transaction whose read waits for a lock, and the lock is granted before the abort request arrives). Its
     * reads cannot be on a cycle (it is not committed); a write of it stays held until its source logs the abort,
     * for the aborted reads of it. Long after the drop, the id is not remembered: it is held without an outcome
     * until the data server's own abort record of it arrives (a data server logs one for every transaction that
     * read or wrote there), and then counted as aborted a second time.
     */
    private Node node(long id) {
        Node n = nodes.get(id);
        if (n == null) {
            if (abortedNow.containsKey(id) || abortedBefore.containsKey(id)) {
                n = new Node(id, ABORTED);
                n.type = abortedNow.containsKey(id) ? abortedNow.get(id) : abortedBefore.get(id);
                n.outcomeChunk = current;
            } else {
                n = new Node(id, UNKNOWN);
            }
            nodes.put(id, n);
        }
        return n;
    }

    private void outcome(HistoryLog.Outcome o, long c, int source) {
        if (o.txn() == 0L) {
            String p = "an outcome (" + (o.committed() ? "committed" : "aborted")
                    + ") was logged for T0, which is always committed; ignored";
            out.record(() -> p);
            return;
        }
        byte s = o.committed() ? COMMITTED : ABORTED;
        Node n = nodes.get(o.txn());
        if (n == null && (droppedNow.contains(o.txn()) || droppedBefore.contains(o.txn()))) {
            if (s == ABORTED) {
                lateAborts.add(o.txn());
            }
            return;
        }
        n = node(o.txn());
        if (s == ABORTED) {
            n.abortSources |= bit(source);
        }
        if (n.status != UNKNOWN) {
            if (n.status != s || !java.util.Objects.equals(n.type, o.type())) {
                String p = "conflicting outcomes for " + TxnIds.format(o.txn()) + ": " + statusName(n.status) + " "
                        + n.type + " vs " + statusName(s) + " " + o.type() + "; kept the first";
                out.record(() -> p, o.txn());
            }
            return;
        }
        n.status = s;
        n.type = o.type();
        n.outcomeChunk = c;
        if (s == COMMITTED) {
            committed++;
            if (n.out != null) {
                for (Edge e : n.out) {
                    if (e.to.committed()) {
                        edgeCounts[e.type.ordinal()]++;
                    }
                }
            }
            if (n.in != null) {
                for (Edge e : n.in) {
                    if (e.from.committed()) {
                        edgeCounts[e.type.ordinal()]++;
                    }
                }
            }
        } else {
            aborted++;
            if (n.writes != null) {
                for (Key k : n.writes.keySet()) {
                    KeyState ks = keys.get(k);
                    if (ks != null && ks.pending != null) {
                        ks.pending.remove(n.id);
                    }
                }
            }
        }
    }

    private static long bit(int source) {
        return 1L << source;
    }

    private void write(HistoryLog.Write w, int source) {
        Node n = node(w.writer());
        n.writeSources |= bit(source);
        if (lateAborts.contains(w.writer())) {
            n.abortSources |= bit(source);
        }
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

    private void edge(Node from, Node to, EdgeType type, Key key) {
        if (from == to) {
            return;
        }
        Edge e = new Edge(from, to, type, key);
        if (from != T0 && from != GONE && !from.dropped) {
            if (from.out == null) {
                from.out = new ArrayList<>(4);
            }
            from.out.add(e);
        }
        if (to.in == null) {
            to.in = new ArrayList<>(4);
        }
        to.in.add(e);
        if (from.committed() && to.committed()) {
            edgeCounts[type.ordinal()]++;
        }
    }

    private KeyState keyState(Key k, long tailId, Node tail) {
        KeyState ks = keys.get(k);
        if (ks == null) {
            ks = new KeyState();
            ks.tailId = tailId;
            ks.tail = tail;
            keys.put(k, ks);
        }
        return ks;
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
        Node reader = node(rid);
        if (rid == wid) {
            return;
        }
        int seq = r.writeSeq();
        KeyState ks = keys.get(k);
        Node w = wid == 0L ? null : nodes.get(wid);
        if (ks != null && ks.tailId == UNKNOWN_TAIL && w == null) {
            ks.tailId = wid;
            ks.tail = wid == 0L ? T0 : GONE;
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
            if (w.status == ABORTED) {
                edge(w, reader, EdgeType.WR, k);
            } else if (last == null) {
                edge(w, reader, EdgeType.WR, k);
                issue(reader, new Issue(ViolationType.INCONSISTENT_RECORD, () -> "committed " + reader.label()
                        + " read " + k + " write #" + seq + " of " + w.label()
                        + ", but no write of it to that key was logged", wid));
            } else if (last >= 0) {
                edge(w, reader, EdgeType.WR, k);
                KeyState s = keyState(k, UNKNOWN_TAIL, GONE);
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
            ks = keyState(k, wid, wid == 0L ? T0 : GONE);
            ks.tailSeq = seq;
            edge(ks.tail, reader, EdgeType.WR, k);
            ks.tailReaders.add(reader);
            return;
        }
        superseded(reader, k, wid, seq, ks);
    }

    /** Keeps {@code i} for {@code reader}'s resolution, or reports it now if the reader is resolved committed. */
    private void issue(Node reader, Issue i) {
        if (!reader.resolved) {
            reader.issue(i);
        } else if (reader.committed()) {
            out.report(i.type, () -> new Violation(i.type, i.message.get(), List.of(reader.id, i.writer), List.of()));
        }
    }

    private void superseded(Node reader, Key k, long wid, int seq, KeyState ks) {
        long tail = ks == null ? 0L : ks.tailId;
        issue(reader, new Issue(ViolationType.INCONSISTENT_RECORD, () -> "committed " + reader.label() + " read "
                + k + " write #" + seq + " of " + TxnIds.format(wid) + ", a version older than the key's final "
                + "version by " + TxnIds.format(tail) + " (or one never written)", wid));
    }

    private void checkSeq(Node reader, String writerLabel, long wid, Key k, int seq, int last) {
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
        KeyState ks = keys.get(k);
        if (wid == 0L) {
            if (ks != null && ks.tailId > 0L) {
                long tail = ks.tailId;
                out.record(() -> "version order of " + k + " lists T0 after " + TxnIds.format(tail)
                        + "; the initial version must be the oldest", 0L);
            }
            return;
        }
        Node w = nodes.get(wid);
        if (w == null || w.status == ABORTED) {
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
            ks = keyState(k, UNKNOWN_TAIL, GONE);
        }
        edge(ks.tail, w, EdgeType.WW, k);
        for (Node r : ks.tailReaders) {
            edge(r, w, EdgeType.RW, k);
        }
        ks.tailReaders = new ArrayList<>();
        List<PendingRead> pr = ks.pending == null ? null : ks.pending.remove(wid);
        if (pr != null) {
            for (PendingRead p : pr) {
                checkSeq(p.reader, w.label(), wid, k, p.writeSeq, last);
                ks.tailReaders.add(p.reader);
            }
        }
        ks.tailId = wid;
        ks.tail = w;
        ks.tailSeq = last;
        w.writes.put(k, -last);
        w.unfinal--;
    }

    /**
     * One pruning pass: resolves the transactions that became complete (reporting their read anomalies), reports
     * the cycles among the final transactions and drops them (see the class comment for the rule).
     */
    public void prune() {
        pass++;
        long complete = Long.MAX_VALUE;
        for (long l : lastChunk) {
            complete = Math.min(complete, l);
        }
        List<Node> finals = new ArrayList<>();
        List<Node> expiredAborts = new ArrayList<>();
        for (Node n : nodes.values()) {
            if (!n.resolved && n.status != UNKNOWN && n.outcomeChunk < complete) {
                resolve(n, false);
            }
            if (n.status == ABORTED && n.resolved && (n.writeSources & ~n.abortSources) == 0) {
                expiredAborts.add(n);
            }
        }
        int stamp = pass;
        ArrayList<Node> stack = new ArrayList<>();
        for (Node n : nodes.values()) {
            if (n.status != ABORTED && !sealed(n) && n.mark != stamp) {
                n.mark = stamp;
                stack.add(n);
                while (!stack.isEmpty()) {
                    Node u = stack.remove(stack.size() - 1);
                    if (u.out == null) {
                        continue;
                    }
                    for (Edge e : u.out) {
                        Node v = e.to;
                        if (v.mark != stamp && v.status != ABORTED && !v.dropped) {
                            v.mark = stamp;
                            stack.add(v);
                        }
                    }
                }
            }
        }
        for (Node n : nodes.values()) {
            if (n.status == COMMITTED && n.mark != stamp) {
                finals.add(n);
            }
        }
        checkCycles(finals);
        for (Node n : finals) {
            drop(n);
        }
        for (Node n : expiredAborts) {
            drop(n);
        }
        sweepKeys();
        if (pass % DROPPED_KEPT_PASSES == 0) {
            droppedBefore = droppedNow;
            droppedNow = new LongOpenHashSet();
            abortedBefore = abortedNow;
            abortedNow = new Long2ObjectOpenHashMap<>();
        }
    }

    private static boolean sealed(Node n) {
        return n.status == COMMITTED && n.resolved && n.unfinal == 0;
    }

    /**
     * Resolves {@code n} (status known and complete): a committed reader's read anomalies are reported, unless a
     * writer it read from is still unresolved (then it waits; at the end, {@code end}, such a writer never
     * finished).
     */
    private void resolve(Node n, boolean end) {
        if (n.status == COMMITTED && n.in != null) {
            for (Edge e : n.in) {
                if (e.type == EdgeType.WR && e.from.status == UNKNOWN && !end) {
                    return;
                }
            }
            for (Edge e : n.in) {
                if (e.type == EdgeType.WR && !e.from.committed()) {
                    Node w = e.from;
                    String what = w.status == ABORTED ? "aborted" : "never finished";
                    out.report(ViolationType.ABORTED_READ, () -> new Violation(ViolationType.ABORTED_READ,
                            "aborted read: committed " + n.label() + " read " + e.key + " of " + w.label()
                                    + ", which " + what, List.of(n.id, w.id), List.of()));
                }
            }
        }
        if (n.status == COMMITTED && n.issues != null) {
            for (Issue i : n.issues) {
                out.report(i.type, () -> new Violation(i.type, i.message.get(), List.of(n.id, i.writer), List.of()));
            }
        }
        n.issues = null;
        n.resolved = true;
    }

    private void drop(Node n) {
        nodes.remove(n.id);
        n.dropped = true;
        n.out = null;
        n.in = null;
        n.writes = null;
        droppedNow.add(n.id);
        if (n.status == ABORTED) {
            abortedNow.put(n.id, n.type);
        }
        dropped++;
    }

    private void sweepKeys() {
        Iterator<KeyState> it = keys.values().iterator();
        while (it.hasNext()) {
            KeyState ks = it.next();
            ks.tailReaders.removeIf(r -> r.dropped);
            if (ks.tail.dropped) {
                ks.tail = GONE;
            }
            if (ks.pending != null && ks.pending.isEmpty()) {
                ks.pending = null;
            }
            if ((ks.tail == GONE || ks.tail == T0) && ks.tailReaders.isEmpty() && ks.pending == null) {
                it.remove();
            }
        }
    }

    /** Reports one violation per non-trivial strongly connected component among {@code group} (committed). */
    private void checkCycles(List<Node> group) {
        int n = group.size();
        if (n < 2) {
            return;
        }
        int stamp = -pass;
        for (int i = 0; i < n; i++) {
            group.get(i).dense = i;
            group.get(i).mark = stamp;
        }
        int[] offsets = new int[n + 1];
        for (int i = 0; i < n; i++) {
            List<Edge> es = group.get(i).out;
            int c = 0;
            if (es != null) {
                for (Edge e : es) {
                    c += e.to.mark == stamp && e.to.committed() ? 1 : 0;
                }
            }
            offsets[i + 1] = offsets[i] + c;
        }
        int m = offsets[n];
        if (m == 0) {
            return;
        }
        int[] targets = new int[m];
        int[] labels = new int[m];
        List<Key> keyList = new ArrayList<>();
        Map<Key, Integer> keyIndex = new HashMap<>();
        int at = 0;
        for (int i = 0; i < n; i++) {
            List<Edge> es = group.get(i).out;
            if (es == null) {
                continue;
            }
            for (Edge e : es) {
                if (e.to.mark == stamp && e.to.committed()) {
                    targets[at] = e.to.dense;
                    int ki = keyIndex.computeIfAbsent(e.key, x -> {
                        keyList.add(x);
                        return keyList.size() - 1;
                    });
                    labels[at++] = Dsg.label(e.type, ki);
                }
            }
        }
        Dsg g = new Dsg(n, offsets, targets, labels, new long[EdgeType.values().length]);
        CycleReporter.report(g, new TxnNames() {
            @Override
            public long txnId(int txn) {
                return group.get(txn).id;
            }

            @Override
            public String label(int txn) {
                return group.get(txn).label();
            }

            @Override
            public Key key(int key) {
                return keyList.get(key);
            }
        }, out);
    }

    /**
     * Ends the check once every source handed over its last chunk (after the run): every transaction is final,
     * those without an outcome are unfinished; reports what remains and returns the verdict over the whole run.
     */
    public CheckResult finish() {
        pass++;
        int unfinished = 0;
        for (Node n : nodes.values()) {
            if (n.status == UNKNOWN) {
                unfinished++;
            }
        }
        for (Node n : nodes.values()) {
            if (!n.resolved && n.status != UNKNOWN) {
                resolve(n, true);
            }
        }
        List<Node> all = new ArrayList<>();
        for (Node n : nodes.values()) {
            if (n.status == COMMITTED) {
                all.add(n);
                if (n.unfinal > 0) {
                    n.writes.forEach((k, seq) -> {
                        if (seq > 0) {
                            out.record(() -> "committed " + n.label() + " wrote " + k + " (final write #" + seq
                                    + ") but is missing from its version order", n.id);
                        }
                    });
                }
            }
        }
        for (Map.Entry<Key, KeyState> e : keys.entrySet()) {
            if (e.getValue().pending == null) {
                continue;
            }
            e.getValue().pending.forEach((wid, list) -> {
                Node w = nodes.get(wid);
                if (w == null || !w.committed()) {
                    return;
                }
                for (PendingRead p : list) {
                    if (p.reader.committed()) {
                        out.record(() -> "committed " + p.reader.label() + " read " + e.getKey() + " written by "
                                + w.label() + ", a version missing from the key's version order", p.reader.id, wid);
                    }
                }
            });
        }
        checkCycles(all);
        for (Node n : new ArrayList<>(nodes.values())) {
            drop(n);
        }
        keys.clear();
        return new CheckResult(out.stored(), out.counts(), edgeCounts, committed, aborted, unfinished,
                (int) Math.min(Integer.MAX_VALUE, reads));
    }

    private static String statusName(byte s) {
        return s == COMMITTED ? "COMMITTED" : s == ABORTED ? "ABORTED" : "UNFINISHED";
    }
}
