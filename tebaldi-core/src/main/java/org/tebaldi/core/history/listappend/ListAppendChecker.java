package org.tebaldi.core.history.listappend;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A black-box checker of list-append histories in the manner of Elle (Kingsbury and Alvaro, VLDB 2020;
 * docs/architecture.md, "Verification"). It trusts nothing the engine reports: each key's version order is recovered
 * from the lists the clients read (the longest observed list; every other read must be a prefix of it), and Adya's
 * dependencies follow from it — ww between consecutive appenders, wr from the appender of a read's last element to
 * the reader, rw from a reader to the appender of the element right after its prefix (after the rest of the last
 * element's appender's appends, for an intermediate read). A transaction's own appends at
 * the end of its read are its own writes and give no edge. Transactions of unknown outcome count as committed iff
 * one of their values is observed. Reported: G0, G1a, G1b, G1c, G-single, G2 (with the cycle and its edge kinds),
 * incompatible orders, duplicated appends, lost appends (missing from the final read of their key) and garbage reads.
 * Time O(ops + observed elements + edges), plus one breadth-first search per tried rw edge of a cyclic component.
 */
public final class ListAppendChecker {
    /** The transaction id anomalies use for a final read. */
    public static final long FINAL_READ = Long.MIN_VALUE;

    /** Where a value was appended: transaction index and op index. */
    private record Append(int txn, int op) {
    }

    /** A trusted read: reader index (-1 for a final read), key, the list, the list without trailing own values. */
    private record Read(int txn, String key, List<Long> observed, List<Long> external) {
    }

    private final List<ObservedTxn> txns;
    private final Map<String, Map<Long, Append>> appends = new LinkedHashMap<>();
    private final boolean[] counted;
    private final List<Anomaly> anomalies = new ArrayList<>();
    private final Map<String, List<Read>> readsByKey = new LinkedHashMap<>();
    private final Map<String, List<Long>> orders = new HashMap<>();
    private long reads;

    private ListAppendChecker(List<ObservedTxn> txns) {
        this.txns = txns;
        this.counted = new boolean[txns.size()];
    }

    /**
     * Checks a history.
     *
     * @throws IllegalArgumentException if two transactions share an id or a value is appended twice to one key (the
     *                                  workload must make values unique; the history cannot be checked otherwise)
     */
    public static Result check(ListAppendHistory h) {
        ListAppendChecker c = new ListAppendChecker(h.txns());
        c.indexAppends();
        c.countUnknowns(h.finalReads());
        c.collectReads(h.finalReads());
        c.recoverOrders();
        c.lostAppends(h.finalReads());
        DepGraph g = c.graph();
        return c.result(g);
    }

    private void indexAppends() {
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < txns.size(); i++) {
            ObservedTxn t = txns.get(i);
            if (!ids.add(t.id())) {
                throw new IllegalArgumentException("list-append history: two transactions have id " + t.id()
                        + "; give every attempt its own id");
            }
            for (int j = 0; j < t.ops().size(); j++) {
                MicroOp op = t.ops().get(j);
                if (!op.isAppend()) {
                    continue;
                }
                Append old = appends.computeIfAbsent(op.key(), k -> new HashMap<>()).put(op.value(), new Append(i, j));
                if (old != null) {
                    throw new IllegalArgumentException("list-append history: value " + op.value()
                            + " appended twice to key " + op.key() + " (by T" + txns.get(old.txn()).id() + " and T"
                            + t.id() + "); every appended value must be unique per key");
                }
            }
        }
    }

    /**
     * Committed transactions count; an unknown one once a counted transaction or a final read observed one of its
     * values (a worklist: a newly counted transaction's reads are scanned in turn).
     */
    private void countUnknowns(Map<String, List<Long>> finalReads) {
        boolean anyUnknown = false;
        java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
        for (int i = 0; i < txns.size(); i++) {
            Outcome o = txns.get(i).outcome();
            anyUnknown |= o == Outcome.UNKNOWN;
            if (o == Outcome.COMMITTED) {
                counted[i] = true;
                work.add(i);
            }
        }
        if (!anyUnknown) {
            return;
        }
        finalReads.forEach((k, l) -> countObserved(k, l, work));
        while (!work.isEmpty()) {
            for (MicroOp op : txns.get(work.poll()).ops()) {
                if (!op.isAppend()) {
                    countObserved(op.key(), op.observed(), work);
                }
            }
        }
    }

    private void countObserved(String key, List<Long> observed, java.util.ArrayDeque<Integer> work) {
        Map<Long, Append> m = appends.get(key);
        if (m == null) {
            return;
        }
        for (long v : observed) {
            Append a = m.get(v);
            if (a != null && !counted[a.txn()] && txns.get(a.txn()).outcome() == Outcome.UNKNOWN) {
                counted[a.txn()] = true;
                work.add(a.txn());
            }
        }
    }

    private void collectReads(Map<String, List<Long>> finalReads) {
        for (int i = 0; i < txns.size(); i++) {
            if (!counted[i]) {
                continue;
            }
            for (MicroOp op : txns.get(i).ops()) {
                if (!op.isAppend()) {
                    addRead(new Read(i, op.key(), op.observed(), external(i, op)));
                }
            }
        }
        finalReads.forEach((k, l) -> addRead(new Read(-1, k, l, l)));
    }

    private void addRead(Read r) {
        readsByKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        reads++;
    }

    /** The read's list without the trailing values its own transaction appended. */
    private List<Long> external(int txn, MicroOp read) {
        List<Long> l = read.observed();
        int end = l.size();
        while (end > 0) {
            Append a = appender(read.key(), l.get(end - 1));
            if (a == null || a.txn() != txn) {
                break;
            }
            end--;
        }
        return l.subList(0, end);
    }

    private Append appender(String key, long value) {
        Map<Long, Append> m = appends.get(key);
        return m == null ? null : m.get(value);
    }

    /**
     * Per key: the longest list is the order, every read must be a prefix of it; duplicates, garbage and values of
     * aborted transactions (G1a) are looked for in the order once and in every read that is not a prefix of it;
     * G1b per read.
     */
    private void recoverOrders() {
        readsByKey.forEach((key, rs) -> {
            Read longest = null;
            for (Read r : rs) {
                if (longest == null || r.observed().size() > longest.observed().size()) {
                    longest = r;
                }
            }
            List<Long> order = longest.observed();
            orders.put(key, order);
            Set<Long> garbage = new HashSet<>();
            int firstAborted = scan(key, longest, garbage);
            Set<List<Long>> reported = new HashSet<>();
            for (Read r : rs) {
                if (r == longest) {
                    continue;
                }
                if (!isPrefix(r.observed(), order)) {
                    if (reported.add(r.observed())) {
                        add(AnomalyType.INCOMPATIBLE_ORDER, List.of(id(r.txn())), "key " + key + ": " + who(r.txn())
                                + " read " + r.observed() + ", not a prefix of the longest read " + order);
                    }
                    scan(key, r, garbage);
                } else if (r.observed().size() > firstAborted) {
                    abortedRead(key, r, order.get(firstAborted));
                }
            }
            for (Read r : rs) {
                intermediateRead(key, r);
            }
        });
    }

    /**
     * Reports duplicates, garbage (once per value) and the first value of an aborted transaction in one read.
     *
     * @return the index of that value, or the list's size if there is none
     */
    private int scan(String key, Read r, Set<Long> garbage) {
        Set<Long> inList = new HashSet<>();
        int firstAborted = r.observed().size();
        for (int i = 0; i < r.observed().size(); i++) {
            long v = r.observed().get(i);
            if (!inList.add(v)) {
                add(AnomalyType.DUPLICATE_APPEND, List.of(id(r.txn())), "key " + key + ": value " + v
                        + " appears twice in " + r.observed());
            }
            Append a = appender(key, v);
            if (a == null) {
                if (garbage.add(v)) {
                    add(AnomalyType.GARBAGE_READ, List.of(id(r.txn())), "key " + key + ": value " + v
                            + " was never appended (read " + r.observed() + ")");
                }
            } else if (firstAborted == r.observed().size() && txns.get(a.txn()).outcome() == Outcome.ABORTED) {
                firstAborted = i;
                abortedRead(key, r, v);
            }
        }
        return firstAborted;
    }

    /** G1a: read {@code r} observed value {@code v} of an aborted transaction. */
    private void abortedRead(String key, Read r, long v) {
        int w = appender(key, v).txn();
        add(AnomalyType.G1A, List.of(id(r.txn()), id(w)), "key " + key + ": " + who(r.txn()) + " read "
                + r.observed() + " with value " + v + " of aborted T" + id(w));
    }

    private static boolean isPrefix(List<Long> p, List<Long> l) {
        return p.size() <= l.size() && l.subList(0, p.size()).equals(p);
    }

    /** G1b: a read whose (external) last value is not its appender's last append to the key. */
    private void intermediateRead(String key, Read r) {
        if (r.external().isEmpty()) {
            return;
        }
        long last = r.external().get(r.external().size() - 1);
        Append a = appender(key, last);
        if (a != null && txns.get(a.txn()).outcome() != Outcome.ABORTED && a.txn() != r.txn()) {
            long final1 = lastAppend(a.txn(), key);
            if (final1 != last) {
                add(AnomalyType.G1B, List.of(id(r.txn()), id(a.txn())), "key " + key + ": " + who(r.txn())
                        + " read " + r.observed() + " ending in " + last + ", but T" + id(a.txn())
                        + " appended " + final1 + " after it");
            }
        }
    }

    private long lastAppend(int txn, String key) {
        long v = 0;
        for (MicroOp op : txns.get(txn).ops()) {
            if (op.isAppend() && op.key().equals(key)) {
                v = op.value();
            }
        }
        return v;
    }

    /** Appends of counted transactions missing from the final read of their key. */
    private void lostAppends(Map<String, List<Long>> finalReads) {
        finalReads.forEach((key, l) -> {
            Set<Long> present = new HashSet<>(l);
            Map<Long, Append> m = appends.getOrDefault(key, Map.of());
            m.forEach((v, a) -> {
                if (counted[a.txn()] && !present.contains(v)) {
                    add(AnomalyType.LOST_APPEND, List.of(id(a.txn())), "key " + key + ": value " + v + " appended by "
                            + txns.get(a.txn()).outcome().name().toLowerCase() + " T" + id(a.txn())
                            + " is missing from the final read " + l);
                }
            });
        });
    }

    /** ww, wr and rw edges among counted transactions. */
    private DepGraph graph() {
        DepGraph g = new DepGraph(txns.size());
        orders.forEach((key, order) -> {
            for (int i = 0; i + 1 < order.size(); i++) {
                Append a = appender(key, order.get(i));
                Append b = appender(key, order.get(i + 1));
                if (a != null && b != null && counted[a.txn()] && counted[b.txn()]) {
                    g.add(a.txn(), b.txn(), EdgeKind.WW, key);
                }
            }
        });
        readsByKey.forEach((key, rs) -> {
            List<Long> order = orders.get(key);
            for (Read r : rs) {
                if (r.txn() < 0) {
                    continue;
                }
                List<Long> ext = r.external();
                if (!ext.isEmpty()) {
                    Append w = appender(key, ext.get(ext.size() - 1));
                    if (w != null && counted[w.txn()]) {
                        g.add(w.txn(), r.txn(), EdgeKind.WR, key);
                    }
                }
                if (isPrefix(r.observed(), order)) {
                    // the next committed version: skip the rest of an intermediate read's appender (that is G1b)
                    int n = ext.size();
                    Append last = n == 0 ? null : appender(key, ext.get(n - 1));
                    while (last != null && n < order.size() && sameTxn(last, appender(key, order.get(n)))) {
                        n++;
                    }
                    Append w = n < order.size() ? appender(key, order.get(n)) : null;
                    if (w != null && counted[w.txn()]) {
                        g.add(r.txn(), w.txn(), EdgeKind.RW, key);
                    }
                }
            }
        });
        return g;
    }

    private static boolean sameTxn(Append a, Append b) {
        return b != null && a.txn() == b.txn();
    }

    private Result result(DepGraph g) {
        anomalies.addAll(CycleSearch.run(g, i -> txns.get(i).id()));
        int committed = 0;
        int aborted = 0;
        int unknown = 0;
        int unknownCounted = 0;
        for (int i = 0; i < txns.size(); i++) {
            switch (txns.get(i).outcome()) {
                case COMMITTED -> committed++;
                case ABORTED -> aborted++;
                case UNKNOWN -> {
                    unknown++;
                    unknownCounted += counted[i] ? 1 : 0;
                }
                default -> throw new IllegalStateException();
            }
        }
        Set<String> keys = new HashSet<>(appends.keySet());
        keys.addAll(readsByKey.keySet());
        Map<EdgeKind, Long> edges = new EnumMap<>(EdgeKind.class);
        for (EdgeKind k : EdgeKind.values()) {
            edges.put(k, g.count(k));
        }
        return new Result(anomalies, new Result.Stats(committed, aborted, unknown, unknownCounted, keys.size(), reads,
                edges));
    }

    private long id(int txn) {
        return txn < 0 ? FINAL_READ : txns.get(txn).id();
    }

    private String who(int txn) {
        return txn < 0 ? "the final read" : "T" + txns.get(txn).id();
    }

    private void add(AnomalyType type, List<Long> ids, String detail) {
        anomalies.add(new Anomaly(type, ids, detail, List.of()));
    }
}
