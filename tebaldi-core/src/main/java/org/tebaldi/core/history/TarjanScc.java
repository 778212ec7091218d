package org.tebaldi.core.history;

import java.util.Arrays;

/**
 * Strongly connected components of a directed graph — the {@link Dsg}, or any {@link Adjacency} such as the
 * list-append checker's dependency graph — by Tarjan's algorithm (Tarjan 1972), iterative with explicit
 * stacks so that a path of millions of transactions cannot overflow the Java stack. O(nodes + edges) time,
 * six {@code int} arrays of length {@code nodes}. Optionally ignores rw edges, which yields the components of
 * the ww/wr-only graph used to recognise G1c.
 */
public final class TarjanScc {
    /** {@code comp[v]} is the component of node v (numbered in completion order), {@code size[c]} its size. */
    record Components(int[] comp, int[] size, int count) {
    }

    /**
     * A directed graph for {@link #components}: nodes {@code 0 .. nodes()-1}, {@code degree(v)} edges out of v, and
     * {@code target(v, i)} the head of v's i-th edge, or -1 for an edge to leave out.
     */
    public interface Adjacency {
        int nodes();

        int degree(int v);

        int target(int v, int i);
    }

    private TarjanScc() {
    }

    /**
     * Strongly connected components of {@code g} (also used by the list-append checker's dependency graph).
     *
     * @return {@code comp[v]}, the component of node v, numbered in completion order; a node alone has its own
     */
    public static int[] components(Adjacency g) {
        return run(g).comp();
    }

    static Components run(Dsg g, boolean skipRw) {
        return run(new Adjacency() {
            @Override
            public int nodes() {
                return g.nodes;
            }

            @Override
            public int degree(int v) {
                return g.offsets[v + 1] - g.offsets[v];
            }

            @Override
            public int target(int v, int i) {
                int e = g.offsets[v] + i;
                return skipRw && g.isRw(e) ? -1 : g.targets[e];
            }
        });
    }

    private static Components run(Adjacency g) {
        int n = g.nodes();
        int[] index = new int[n];
        int[] low = new int[n];
        int[] comp = new int[n];
        Arrays.fill(comp, -1);
        int[] next = new int[n];
        int[] stack = new int[n];
        int[] call = new int[n];
        int[] size = new int[n];
        int sp = 0;
        int counter = 0;
        int count = 0;
        for (int s = 0; s < n; s++) {
            if (index[s] != 0) {
                continue;
            }
            if (g.degree(s) == 0) {
                index[s] = ++counter;
                comp[s] = count;
                size[count++] = 1;
                continue;
            }
            int cp = 0;
            index[s] = low[s] = ++counter;
            stack[sp++] = s;
            call[cp++] = s;
            while (cp > 0) {
                int v = call[cp - 1];
                if (next[v] < g.degree(v)) {
                    int w = g.target(v, next[v]++);
                    if (w < 0) {
                        continue;
                    }
                    if (index[w] == 0) {
                        index[w] = low[w] = ++counter;
                        stack[sp++] = w;
                        call[cp++] = w;
                    } else if (comp[w] < 0 && index[w] < low[v]) {
                        low[v] = index[w];
                    }
                    continue;
                }
                cp--;
                if (low[v] == index[v]) {
                    int w;
                    do {
                        w = stack[--sp];
                        comp[w] = count;
                        size[count]++;
                    } while (w != v);
                    count++;
                }
                if (cp > 0) {
                    int u = call[cp - 1];
                    if (low[v] < low[u]) {
                        low[u] = low[v];
                    }
                }
            }
        }
        return new Components(comp, size, count);
    }
}
