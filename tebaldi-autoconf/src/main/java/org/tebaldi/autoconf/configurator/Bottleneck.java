package org.tebaldi.autoconf.configurator;

import java.util.List;

/**
 * The analysis stage's verdict over one profiling period (dissertation §5.3): conflict edges by severity — the
 * first is the bottleneck. A score is µs of blocking attributed to the edge per second of profiling, nested waits
 * attributed as in Fig 5.6.
 *
 * @param edges at least one edge, most severe first
 */
public record Bottleneck(List<Edge> edges) {
    /** A conflict edge by type names ({@code a} equals {@code b} for contention among instances of one type). */
    public record Edge(String a, String b, double scoreMicrosPerSec) {
        /** E.g. {@code new_order–payment}. */
        public String name() {
            return a + "–" + b;
        }
    }

    /** @throws IllegalArgumentException if {@code edges} is empty */
    public Bottleneck {
        if (edges.isEmpty()) {
            throw new IllegalArgumentException("a bottleneck needs at least one edge");
        }
        edges = List.copyOf(edges);
    }

    /** The most severe edge. */
    public Edge top() {
        return edges.get(0);
    }

    /** The most severe edge's name. */
    public String edge() {
        return top().name();
    }

    /** The most severe edge's score, µs per s. */
    public double scoreMicrosPerSec() {
        return top().scoreMicrosPerSec();
    }
}
