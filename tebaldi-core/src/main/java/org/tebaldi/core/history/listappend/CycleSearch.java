package org.tebaldi.core.history.listappend;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntToLongFunction;

/**
 * Finds and classifies the cycles of a {@link DepGraph} the way Elle does: G0 in the ww-only graph, G1c in the
 * ww+wr graph (a cycle through a wr edge), G-single (an rw edge {@code u → v} closed by a ww/wr-only path
 * {@code v → u}) and G2 (an rw edge closed only by paths with more rw edges) in the full graph. One cycle is reported
 * per strongly connected component and type; a component of the full graph yields G-single if any of its first
 * {@value #MAX_RW_TRIES} rw edges closes with a ww/wr path, else G2.
 */
final class CycleSearch {
    /** rw edges tried per component when looking for a G-single cycle. */
    static final int MAX_RW_TRIES = 200;

    private static final Set<EdgeKind> WW = EnumSet.of(EdgeKind.WW);
    private static final Set<EdgeKind> WW_WR = EnumSet.of(EdgeKind.WW, EdgeKind.WR);
    private static final Set<EdgeKind> ALL = EnumSet.allOf(EdgeKind.class);

    private final DepGraph g;
    private final IntToLongFunction idOf;
    private final List<Anomaly> found = new ArrayList<>();

    private CycleSearch(DepGraph g, IntToLongFunction idOf) {
        this.g = g;
        this.idOf = idOf;
    }

    /**
     * The cycles of {@code g}, G0 first, then G1c, G-single, G2.
     *
     * @param idOf a node's transaction id, for the report
     */
    static List<Anomaly> run(DepGraph g, IntToLongFunction idOf) {
        CycleSearch s = new CycleSearch(g, idOf);
        s.closing(WW, EdgeKind.WW, WW, AnomalyType.G0);
        s.closing(WW_WR, EdgeKind.WR, WW_WR, AnomalyType.G1C);
        s.rwCycles();
        return s.found;
    }

    /**
     * In every non-trivial component of the {@code kinds} graph, the first edge of kind {@code through} closed by a
     * path over {@code closeBy} edges.
     */
    private void closing(Set<EdgeKind> kinds, EdgeKind through, Set<EdgeKind> closeBy, AnomalyType type) {
        int[] comp = g.components(kinds);
        boolean[] done = new boolean[g.size() + 1];
        for (int u = 0; u < g.size(); u++) {
            for (DepGraph.Edge e : g.out(u)) {
                int c = comp[u];
                if (e.kind() != through || comp[e.to()] != c || done[c]) {
                    continue;
                }
                List<DepGraph.Edge> back = g.path(e.to(), u, closeBy, comp, c);
                if (back != null) {
                    done[c] = true;
                    report(type, e, back);
                }
            }
        }
    }

    private void rwCycles() {
        int[] comp = g.components(ALL);
        int[] tries = new int[g.size() + 1];
        boolean[] single = new boolean[g.size() + 1];
        DepGraph.Edge[] firstRw = new DepGraph.Edge[g.size() + 1];
        for (int u = 0; u < g.size(); u++) {
            for (DepGraph.Edge e : g.out(u)) {
                int c = comp[u];
                if (e.kind() != EdgeKind.RW || comp[e.to()] != c || single[c] || tries[c] >= MAX_RW_TRIES) {
                    continue;
                }
                tries[c]++;
                if (firstRw[c] == null) {
                    firstRw[c] = e;
                }
                List<DepGraph.Edge> back = g.path(e.to(), u, WW_WR, comp, c);
                if (back != null) {
                    single[c] = true;
                    report(AnomalyType.G_SINGLE, e, back);
                }
            }
        }
        for (int c = 0; c < firstRw.length; c++) {
            DepGraph.Edge e = firstRw[c];
            if (e != null && !single[c]) {
                report(AnomalyType.G2, e, g.path(e.to(), e.from(), ALL, comp, c));
            }
        }
    }

    private void report(AnomalyType type, DepGraph.Edge first, List<DepGraph.Edge> back) {
        List<Anomaly.Edge> cycle = new ArrayList<>();
        List<Long> txns = new ArrayList<>();
        cycle.add(edge(first));
        txns.add(idOf.applyAsLong(first.from()));
        for (DepGraph.Edge e : back) {
            cycle.add(edge(e));
            txns.add(idOf.applyAsLong(e.from()));
        }
        StringBuilder d = new StringBuilder("cycle ");
        for (Anomaly.Edge e : cycle) {
            d.append("T").append(e.from()).append(" -").append(e.kind().name().toLowerCase()).append('(')
                    .append(e.key()).append(")-> ");
        }
        d.append("T").append(cycle.get(0).from());
        found.add(new Anomaly(type, txns, d.toString(), cycle));
    }

    private Anomaly.Edge edge(DepGraph.Edge e) {
        return new Anomaly.Edge(idOf.applyAsLong(e.from()), idOf.applyAsLong(e.to()), e.kind(), e.key());
    }
}
