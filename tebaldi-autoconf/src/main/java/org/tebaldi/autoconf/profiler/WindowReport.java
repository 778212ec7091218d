package org.tebaldi.autoconf.profiler;

import java.util.Map;
import java.util.stream.Collectors;
import org.tebaldi.core.db.Database;

/**
 * What the profiler monitor found in one analysis window (dissertation §5.3): scores per ordered type pair and per
 * conflict edge (µs of blocking, nested waits attributed), and the bottleneck edge (null if nothing blocked).
 *
 * @param startMicros window start, µs on the cluster clock
 * @param endMicros   window end, µs
 * @param events      blocking events counted
 */
public record WindowReport(long startMicros, long endMicros, int events, Map<TypePair, Long> pairs,
                           Map<ConflictEdge, Long> edges, ConflictEdge bottleneck) {
    /** Score of the bottleneck edge, µs (0 if none). */
    public long bottleneckScore() {
        return bottleneck == null ? 0 : edges.getOrDefault(bottleneck, 0L);
    }

    /** E.g. {@code new_order–payment 812 ms (3 edges, 4,211 events)}. */
    public String describe(Database db) {
        if (bottleneck == null) {
            return "no blocking (" + events + " events)";
        }
        return name(db, bottleneck) + " " + bottleneckScore() / 1000 + " ms (" + edges.size() + " edges, " + events
                + " events); top: " + edges.entrySet().stream().limit(3)
                .map(e -> name(db, e.getKey()) + "=" + e.getValue() / 1000 + "ms").collect(Collectors.joining(", "));
    }

    /** The edge's type names, e.g. {@code new_order–payment}. */
    public static String name(Database db, ConflictEdge e) {
        return typeName(db, e.a()) + "–" + typeName(db, e.b());
    }

    private static String typeName(Database db, int type) {
        return type >= 0 && type < db.types().size() ? db.type(type).name() : "?" + type;
    }
}
