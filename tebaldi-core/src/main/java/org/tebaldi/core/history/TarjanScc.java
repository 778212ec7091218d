package org.tebaldi.core.history;

import java.util.Arrays;

/**
 * Strongly connected components of a {@link Dsg} by Tarjan's algorithm (Tarjan 1972), iterative with explicit
 * stacks so that a path of millions of transactions cannot overflow the Java stack. O(nodes + edges) time,
 * six {@code int} arrays of length {@code nodes}. Optionally ignores rw edges, which yields the components of
 * the ww/wr-only graph used to recognise G1c.
 */
final class TarjanScc {
    /** {@code comp[v]} is the component of node v (numbered in completion order), {@code size[c]} its size. */
    record Components(int[] comp, int[] size, int count) {
    }

    private TarjanScc() {
    }

    static Components run(Dsg g, boolean skipRw) {
        int n = g.nodes;
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
            if (g.offsets[s] == g.offsets[s + 1]) {
                index[s] = ++counter;
                comp[s] = count;
                size[count++] = 1;
                continue;
            }
            int cp = 0;
            index[s] = low[s] = ++counter;
            next[s] = g.offsets[s];
            stack[sp++] = s;
            call[cp++] = s;
            while (cp > 0) {
                int v = call[cp - 1];
                if (next[v] < g.offsets[v + 1]) {
                    int e = next[v]++;
                    if (skipRw && g.isRw(e)) {
                        continue;
                    }
                    int w = g.targets[e];
                    if (index[w] == 0) {
                        index[w] = low[w] = ++counter;
                        next[w] = g.offsets[w];
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
