package org.tebaldi.core.history.listappend;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tebaldi.core.history.TarjanScc;

/**
 * The dependency graph the list-append checker infers: nodes {@code 0..n-1} (indexes of transactions counted as
 * committed), edges with a kind and the key that caused them (one edge per (from, to, kind); the first key kept).
 * Strongly connected components by Tarjan's algorithm (iterative, so long paths cannot overflow the stack) and
 * shortest paths by breadth-first search, both restricted to a set of edge kinds. O(nodes + edges) each.
 */
final class DepGraph {
    /** One stored edge. */
    record Edge(int from, int to, EdgeKind kind, String key) {
    }

    private final int n;
    private final List<List<Edge>> out = new ArrayList<>();
    private final Set<Long> seen = new HashSet<>();
    private final long[] counts = new long[EdgeKind.values().length];

    DepGraph(int n) {
        this.n = n;
        for (int i = 0; i < n; i++) {
            out.add(new ArrayList<>());
        }
    }

    int size() {
        return n;
    }

    /** Adds {@code from → to} of {@code kind} unless it is a self-loop or already present. */
    void add(int from, int to, EdgeKind kind, String key) {
        if (from == to) {
            return;
        }
        long packed = ((long) from * n + to) * 3 + kind.ordinal();
        if (seen.add(packed)) {
            out.get(from).add(new Edge(from, to, kind, key));
            counts[kind.ordinal()]++;
        }
    }

    /** Distinct edges of {@code kind}. */
    long count(EdgeKind kind) {
        return counts[kind.ordinal()];
    }

    List<Edge> out(int v) {
        return out.get(v);
    }

    /**
     * Strongly connected components using only edges whose kind is in {@code kinds}.
     *
     * @return {@code comp[v]}, the component number of node v; components of one node have a unique number too
     */
    int[] components(Set<EdgeKind> kinds) {
        return TarjanScc.components(new TarjanScc.Adjacency() {
            @Override
            public int nodes() {
                return n;
            }

            @Override
            public int degree(int v) {
                return out.get(v).size();
            }

            @Override
            public int target(int v, int i) {
                Edge e = out.get(v).get(i);
                return kinds.contains(e.kind()) ? e.to() : -1;
            }
        });
    }

    /**
     * A shortest path {@code from → … → to} over edges of {@code kinds} whose nodes all lie in component
     * {@code c} of {@code comp}; null if there is none. An empty list if {@code from == to}.
     */
    List<Edge> path(int from, int to, Set<EdgeKind> kinds, int[] comp, int c) {
        if (from == to) {
            return List.of();
        }
        Edge[] via = new Edge[n];
        boolean[] mark = new boolean[n];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        mark[from] = true;
        queue.add(from);
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (Edge e : out.get(u)) {
                int w = e.to();
                if (!kinds.contains(e.kind()) || comp[w] != c || mark[w]) {
                    continue;
                }
                mark[w] = true;
                via[w] = e;
                if (w == to) {
                    List<Edge> p = new ArrayList<>();
                    for (int v = to; v != from; v = via[v].from()) {
                        p.add(via[v]);
                    }
                    java.util.Collections.reverse(p);
                    return p;
                }
                queue.add(w);
            }
        }
        return null;
    }
}
