package org.tebaldi.autoconf.configurator;

import java.util.Map;

/**
 * The analysis stage's verdict over one profiling period (dissertation §5.3): the most severe conflict edge, by
 * type names ({@code typeA} equals {@code typeB} for contention among instances of one type), its score — µs of
 * blocking attributed to it per second of profiling, nested waits attributed as in Fig 5.6 — and every edge's score
 * the same way (e.g. {@code new_order–payment}), highest first.
 */
public record Bottleneck(String typeA, String typeB, double scoreMicrosPerSec, Map<String, Double> edges) {
    /** E.g. {@code new_order–payment}. */
    public String edge() {
        return typeA + "–" + typeB;
    }
}
