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
        c.readAnomalies();
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

    /** Committed transactions count; unknown ones once a counted transaction or a final read observed a value. */
    private void countUnknowns(Map<String, List<Long>> finalReads) {
        Set<String> observed = new HashSet<>();
        finalReads.forEach((k, l) -> l.forEach(v -> observed.add(k + '\u0000' + v)));
        for (int i = 0; i < txns.size(); i++) {
            if (txns.get(i).outcome() == Outcome.COMMITTED) {
                counted[i] = true;
                addObserved(txns.get(i), observed);
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 0; i < txns.size(); i++) {
                ObservedTxn t = txns.get(i);
                if (counted[i] || t.outcome() != Outcome.UNKNOWN) {
                    continue;
                }
                for (MicroOp op : t.ops()) {
                    if (op.isAppend() && observed.contains(op.key() + '\u0000' + op.value())) {
                        counted[i] = true;
                        changed = true;
                        addObserved(t, observed);
                        break;
                    }
                }
            }
        }
    }

    private static void addObserved(ObservedTxn t, Set<String> observed) {
        for (MicroOp op : t.ops()) {
            if (!op.isAppend()) {
                op.observed().forEach(v -> observed.add(op.key() + '\u0000' + v));
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

    /** Per key: duplicates, garbage, the longest list as the order, and every read a prefix of it. */
    private void recoverOrders() {
        readsByKey.forEach((key, rs) -> {
            Set<Long> garbage = new HashSet<>();
            List<Long> longest = List.of();
            for (Read r : rs) {
                Set<Long> inList = new HashSet<>();
                for (long v : r.observed()) {
                    if (!inList.add(v)) {
                        add(AnomalyType.DUPLICATE_APPEND, List.of(id(r.txn())), "key " + key + ": value " + v
                                + " appears twice in " + r.observed());
                    }
                    if (appender(key, v) == null && garbage.add(v)) {
                        add(AnomalyType.GARBAGE_READ, List.of(id(r.txn())), "key " + key + ": value " + v
                                + " was never appended (read " + r.observed() + ")");
                    }
                }
                if (r.observed().size() > longest.size()) {
                    longest = r.observed();
                }
            }
            orders.put(key, longest);
            Set<List<Long>> reported = new HashSet<>();
            for (Read r : rs) {
                if (!isPrefix(r.observed(), longest) && reported.add(r.observed())) {
                    add(AnomalyType.INCOMPATIBLE_ORDER, List.of(id(r.txn())), "key " + key + ": " + who(r.txn())
                            + " read " + r.observed() + ", not a prefix of the longest read " + longest);
                }
            }
        });
    }

    private static boolean isPrefix(List<Long> p, List<Long> l) {
        return p.size() <= l.size() && l.subList(0, p.size()).equals(p);
    }

    /** G1a (a value of an aborted transaction observed) and G1b (a read ending in an intermediate append). */
    private void readAnomalies() {
        readsByKey.forEach((key, rs) -> {
            for (Read r : rs) {
                for (long v : r.observed()) {
                    Append a = appender(key, v);
                    if (a != null && txns.get(a.txn()).outcome() == Outcome.ABORTED) {
                        add(AnomalyType.G1A, List.of(id(r.txn()), id(a.txn())), "key " + key + ": " + who(r.txn())
                                + " read " + r.observed() + " with value " + v + " of aborted T" + id(a.txn()));
                    }
                }
                if (r.external().isEmpty()) {
                    continue;
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
        });
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
