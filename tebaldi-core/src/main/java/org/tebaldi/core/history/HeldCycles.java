package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.history.HeldTxn.Edge;
import org.tebaldi.core.model.Key;

/**
 * The cycle check of one {@link IncrementalChecker} pass: the DSG among a group of held committed transactions
 * closed under predecessors (the final ones, or all at the end), in {@link Dsg} form, reported by
 * {@link CycleReporter} — one violation per non-trivial strongly connected component (G1c if it has a ww/wr-only
 * cycle, else G2; Adya 1999, dissertation §2.2.3).
 */
final class HeldCycles {
    private HeldCycles() {
    }

    /**
     * Reports one violation per non-trivial strongly connected component among {@code group} (committed) to
     * {@code out}; {@code stamp} marks the group's members and must differ from every mark they carry.
     */
    static void report(List<HeldTxn> group, int stamp, ViolationCollector out) {
        int n = group.size();
        if (n < 2) {
            return;
        }
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
                    c += inGroup(e, stamp) ? 1 : 0;
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
                if (inGroup(e, stamp)) {
                    targets[at] = e.to().dense;
                    int ki = keyIndex.computeIfAbsent(e.key(), x -> {
                        keyList.add(x);
                        return keyList.size() - 1;
                    });
                    labels[at++] = Dsg.label(e.type(), ki);
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

    private static boolean inGroup(Edge e, int stamp) {
        return e.to().mark == stamp && e.to().committed();
    }
}
