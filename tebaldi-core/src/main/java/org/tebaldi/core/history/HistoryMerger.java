package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.TxnIds;

/**
 * Builds a {@link History} from node logs: interns transaction ids and keys to dense indices, takes outcomes
 * first (so conflicts are reported against the first outcome), then writes, version orders and reads.
 */
final class HistoryMerger {
    /** Keys are packed with the edge type into one int by the DSG, so at most 2^30 of them. */
    static final int MAX_KEYS = 1 << 30;

    private final LongIntHashMap txnIndex;
    private long[] txnIds;
    private byte[] status;
    private int[] typeOf;
    private int txnCount;
    private final Map<String, Integer> typeIndex = new HashMap<>();
    private final List<String> types = new ArrayList<>();
    private final Map<Key, Integer> keyIndex = new HashMap<>();
    private final List<Key> keys = new ArrayList<>();
    private final LongIntHashMap finalSeq;
    private final List<int[]> orders = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    private HistoryMerger(int expectedTxns, int expectedWrites) {
        txnIndex = new LongIntHashMap(expectedTxns);
        txnIds = new long[Math.max(16, expectedTxns)];
        status = new byte[txnIds.length];
        typeOf = new int[txnIds.length];
        finalSeq = new LongIntHashMap(expectedWrites);
        int t0 = txn(0L);
        status[t0] = (byte) TxnStatus.COMMITTED.ordinal();
    }

    static History merge(Collection<HistoryLog> logs) {
        Objects.requireNonNull(logs, "logs");
        long outcomes = 0;
        long writes = 0;
        long reads = 0;
        for (HistoryLog log : logs) {
            Objects.requireNonNull(log, "log");
            outcomes += log.outcomes().size();
            writes += log.writes().size() + log.copies().size();
            reads += log.reads().size();
        }
        if (reads > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many reads to index: " + reads);
        }
        HistoryMerger m = new HistoryMerger((int) Math.min(outcomes + 1, 1 << 28), (int) Math.min(writes, 1 << 28));
        for (HistoryLog log : logs) {
            for (HistoryLog.Outcome o : log.outcomes()) {
                m.outcome(o);
            }
        }
        for (HistoryLog log : logs) {
            for (HistoryLog.Write w : log.writes()) {
                m.write(w);
            }
            for (HistoryLog.Write w : log.copies()) {
                m.write(w); // a copy is the data server's write again (HistoryLog.copy)
            }
        }
        for (HistoryLog log : logs) {
            for (Map.Entry<Key, long[]> e : log.versionOrders().entrySet()) {
                m.versionOrder(e.getKey(), e.getValue());
            }
        }
        int[][] readColumns = new int[4][(int) reads];
        int i = 0;
        for (HistoryLog log : logs) {
            for (HistoryLog.Read r : log.reads()) {
                readColumns[0][i] = m.txn(r.reader());
                readColumns[1][i] = m.key(r.key());
                readColumns[2][i] = m.txn(r.writer());
                readColumns[3][i] = r.writeSeq();
                i++;
            }
        }
        return m.build(readColumns);
    }

    private void outcome(HistoryLog.Outcome o) {
        if (o.txn() == 0L) {
            problems.add("an outcome (" + (o.committed() ? "committed" : "aborted")
                    + ") was logged for T0, which is always committed; ignored");
            return;
        }
        int t = txn(o.txn());
        TxnStatus s = o.committed() ? TxnStatus.COMMITTED : TxnStatus.ABORTED;
        int type = o.type() == null ? -1 : typeIndex.computeIfAbsent(o.type(), n -> {
            types.add(n);
            return types.size() - 1;
        });
        if (status[t] != TxnStatus.UNFINISHED.ordinal()) {
            if (status[t] != s.ordinal() || typeOf[t] != type) {
                problems.add("conflicting outcomes for " + TxnIds.format(o.txn()) + ": "
                        + TxnStatus.values()[status[t]] + " " + typeName(typeOf[t]) + " vs " + s + " "
                        + typeName(type) + "; kept the first");
            }
            return;
        }
        status[t] = (byte) s.ordinal();
        typeOf[t] = type;
    }

    private void write(HistoryLog.Write w) {
        int t = txn(w.writer());
        int k = key(w.key());
        if (w.writeSeq() < 1) {
            problems.add(TxnIds.format(w.writer()) + " logged write #" + w.writeSeq() + " to " + w.key()
                    + " (write sequence numbers start at 1); ignored");
            return;
        }
        long p = History.pair(t, k);
        if (finalSeq.get(p, 0) < w.writeSeq()) {
            finalSeq.put(p, w.writeSeq());
        }
    }

    private void versionOrder(Key key, long[] writers) {
        int k = key(Objects.requireNonNull(key, "key"));
        int[] dense = new int[writers.length];
        for (int i = 0; i < writers.length; i++) {
            dense[i] = txn(writers[i]);
        }
        int[] earlier = orders.get(k);
        if (earlier == null) {
            orders.set(k, dense);
        } else if (!Arrays.equals(earlier, dense)) {
            int at = Arrays.mismatch(earlier, dense);
            problems.add("logs disagree on the version order of " + key + " at position " + at + " ("
                    + describe(earlier, at) + " vs " + describe(dense, at) + "; lengths " + earlier.length
                    + " and " + dense.length + "); kept the first");
        }
    }

    private History build(int[][] readColumns) {
        int n = txnCount;
        int[] typeCopy = Arrays.copyOf(typeOf, n);
        int total = 0;
        BitSet hasOrder = new BitSet(keys.size());
        int[] start = new int[keys.size() + 1];
        for (int k = 0; k < keys.size(); k++) {
            int[] o = orders.get(k);
            start[k] = total;
            if (o != null) {
                hasOrder.set(k);
                total = Math.addExact(total, o.length);
            }
        }
        start[keys.size()] = total;
        int[] flat = new int[total];
        for (int k = 0; k < keys.size(); k++) {
            int[] o = orders.get(k);
            if (o != null) {
                System.arraycopy(o, 0, flat, start[k], o.length);
            }
        }
        orders.clear();
        return new History(Arrays.copyOf(txnIds, n), Arrays.copyOf(status, n), typeCopy,
                types.toArray(new String[0]), txnIndex, keys.toArray(new Key[0]), keyIndex, readColumns,
                finalSeq, hasOrder, start, flat, problems);
    }

    private int txn(long id) {
        int t = txnIndex.get(id, -1);
        if (t >= 0) {
            return t;
        }
        if (txnCount == txnIds.length) {
            int cap = Math.addExact(txnIds.length, txnIds.length >> 1);
            txnIds = Arrays.copyOf(txnIds, cap);
            status = Arrays.copyOf(status, cap);
            typeOf = Arrays.copyOf(typeOf, cap);
        }
        t = txnCount++;
        txnIds[t] = id;
        status[t] = (byte) TxnStatus.UNFINISHED.ordinal();
        typeOf[t] = -1;
        txnIndex.put(id, t);
        return t;
    }

    private int key(Key key) {
        Integer k = keyIndex.get(key);
        if (k != null) {
            return k;
        }
        if (keys.size() >= MAX_KEYS) {
            throw new IllegalArgumentException("more than " + MAX_KEYS + " distinct keys");
        }
        int idx = keys.size();
        keyIndex.put(key, idx);
        keys.add(key);
        orders.add(null);
        return idx;
    }

    private String typeName(int type) {
        return type < 0 ? "(no type)" : types.get(type);
    }

    private String describe(int[] order, int at) {
        return at < order.length ? TxnIds.format(txnIds[order[at]]) : "end";
    }
}
