package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reports one concrete cycle per non-trivial strongly connected component of the DSG (dissertation §2.2.3;
 * Adya 1999): if the component contains a cycle of ww/wr edges only, that cycle as G1c, otherwise a cycle
 * (necessarily with an rw edge) as G2. Messages print at most {@value #MAX_PRINTED_EDGES} edges of a cycle
 * (the first and last half); the violation's edge list is always complete.
 */
final class CycleReporter {
    static final int MAX_PRINTED_EDGES = 40;

    private CycleReporter() {
    }

    static void report(Dsg g, TxnNames h, ViolationCollector out) {
        TarjanScc.Components all = TarjanScc.run(g, false);
        int[] rep = new int[all.count()];
        Arrays.fill(rep, -1);
        boolean any = false;
        for (int v = 0; v < g.nodes; v++) {
            int c = all.comp()[v];
            if (all.size()[c] > 1) {
                any = true;
                if (rep[c] < 0) {
                    rep[c] = v;
                }
            }
        }
        if (!any) {
            return;
        }
        TarjanScc.Components dep = TarjanScc.run(g, true);
        int[] depRep = new int[all.count()];
        Arrays.fill(depRep, -1);
        for (int v = 0; v < g.nodes; v++) {
            int c = all.comp()[v];
            if (depRep[c] < 0 && dep.size()[dep.comp()[v]] > 1) {
                depRep[c] = v;
            }
        }
        CycleFinder finder = new CycleFinder(g);
        for (int c = 0; c < all.count(); c++) {
            if (rep[c] >= 0) {
                reportComponent(c, rep[c], depRep[c], all, dep, finder, g, h, out);
            }
        }
    }

    private static void reportComponent(int c, int rep, int depRep, TarjanScc.Components all,
            TarjanScc.Components dep, CycleFinder finder, Dsg g, TxnNames h, ViolationCollector out) {
        int size = all.size()[c];
        if (depRep >= 0) {
            ViolationType t = ViolationType.CIRCULAR_FLOW;
            out.report(t, () -> violation(t, g, h, finder.through(depRep, dep.comp(), dep.comp()[depRep], true), size));
        } else {
            ViolationType t = ViolationType.ANTI_DEPENDENCY_CYCLE;
            out.report(t, () -> violation(t, g, h, finder.through(rep, all.comp(), c, false), size));
        }
    }

    private static Violation violation(ViolationType type, Dsg g, TxnNames h, CycleFinder.Cycle cycle, int scc) {
        int[] nodes = cycle.nodes();
        int[] edges = cycle.edges();
        int n = nodes.length;
        List<Long> txns = new ArrayList<>(n);
        List<DsgEdge> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            txns.add(h.txnId(nodes[i]));
            int label = g.labels[edges[i]];
            list.add(new DsgEdge(h.txnId(nodes[i]), h.txnId(nodes[(i + 1) % n]), Dsg.type(label),
                    h.key(Dsg.key(label))));
        }
        String what = type == ViolationType.CIRCULAR_FLOW ? "ww/wr cycle" : "cycle with anti-dependencies";
        StringBuilder sb = new StringBuilder();
        sb.append(what).append(" of ").append(n).append(" transactions (strongly connected component of ")
                .append(scc).append("): cycle: ").append(h.label(nodes[0]));
        int half = MAX_PRINTED_EDGES / 2;
        for (int i = 0; i < n; i++) {
            if (n > MAX_PRINTED_EDGES && i == half) {
                int resume = n - half;
                sb.append(" ... (").append(resume - half).append(" edges omitted) ... ")
                        .append(h.label(nodes[resume]));
                i = resume - 1;
                continue;
            }
            DsgEdge e = list.get(i);
            sb.append(" -").append(e.type().label()).append('(').append(e.key()).append(")-> ")
                    .append(h.label(nodes[(i + 1) % n]));
        }
        return new Violation(type, sb.toString(), txns, list);
    }
}
