package org.tebaldi.core.history;

/**
 * Extracts one concrete cycle from a strongly connected component of a {@link Dsg}: a breadth-first search from
 * a start node, restricted to the component, stops at the first edge back to the start, which gives a shortest
 * cycle through it. O(edges of the component) per call; the work arrays are shared between calls.
 */
final class CycleFinder {
    /** A cycle: {@code edges[i]} (a stored edge position) goes from {@code nodes[i]} to {@code nodes[i+1 mod n]}. */
    record Cycle(int[] nodes, int[] edges) {
    }

    private final Dsg g;
    private final int[] mark;
    private final int[] parentNode;
    private final int[] parentEdge;
    private final int[] queue;
    private int stamp;

    CycleFinder(Dsg g) {
        this.g = g;
        this.mark = new int[g.nodes];
        this.parentNode = new int[g.nodes];
        this.parentEdge = new int[g.nodes];
        this.queue = new int[g.nodes];
    }

    /**
     * A shortest cycle through {@code start} using only nodes {@code v} with {@code comp[v] == c} (and no rw
     * edge if {@code skipRw}). @throws IllegalStateException if there is none (the component is trivial)
     */
    Cycle through(int start, int[] comp, int c, boolean skipRw) {
        int s = ++stamp;
        mark[start] = s;
        int head = 0;
        int tail = 0;
        queue[tail++] = start;
        while (head < tail) {
            int u = queue[head++];
            for (int e = g.offsets[u]; e < g.offsets[u + 1]; e++) {
                if (skipRw && g.isRw(e)) {
                    continue;
                }
                int w = g.targets[e];
                if (comp[w] != c) {
                    continue;
                }
                if (w == start) {
                    return unwind(start, u, e);
                }
                if (mark[w] != s) {
                    mark[w] = s;
                    parentNode[w] = u;
                    parentEdge[w] = e;
                    queue[tail++] = w;
                }
            }
        }
        throw new IllegalStateException("no cycle through node " + start + " in component " + c);
    }

    private Cycle unwind(int start, int last, int closingEdge) {
        int len = 1;
        for (int v = last; v != start; v = parentNode[v]) {
            len++;
        }
        int[] nodes = new int[len];
        int[] edges = new int[len];
        edges[len - 1] = closingEdge;
        int i = len - 1;
        for (int v = last; v != start; v = parentNode[v]) {
            nodes[i] = v;
            edges[i - 1] = parentEdge[v];
            i--;
        }
        nodes[0] = start;
        return new Cycle(nodes, edges);
    }
}
