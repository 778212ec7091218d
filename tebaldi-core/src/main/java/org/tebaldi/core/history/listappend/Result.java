package org.tebaldi.core.history.listappend;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Outcome of {@link ListAppendChecker#check}: the anomalies found (at most {@value #MAX_STORED} stored per type,
 * all counted), and what the verdict rests on: transactions by outcome, keys, reads and inferred edges. Immutable.
 */
public final class Result {
    /** Anomalies kept per type; {@link #count} counts all. */
    public static final int MAX_STORED = 100;

    /**
     * Counts of what was checked.
     *
     * @param committed         transactions with outcome committed
     * @param aborted           transactions with outcome aborted
     * @param unknown           transactions with outcome unknown
     * @param unknownCommitted  of those, counted as committed (one of their values was observed)
     * @param keys              keys appended to or read
     * @param reads             trusted reads (of transactions counted as committed, plus final reads)
     * @param edges             inferred edges by kind (ww, wr, rw)
     */
    public record Stats(int committed, int aborted, int unknown, int unknownCommitted, int keys, long reads,
                        Map<EdgeKind, Long> edges) {
        /** Copies the edge counts. */
        public Stats {
            edges = Collections.unmodifiableMap(new EnumMap<>(edges));
        }
    }

    private final Map<AnomalyType, List<Anomaly>> stored = new EnumMap<>(AnomalyType.class);
    private final long[] counts = new long[AnomalyType.values().length];
    private final Stats stats;

    Result(List<Anomaly> anomalies, Stats stats) {
        for (Anomaly a : anomalies) {
            counts[a.type().ordinal()]++;
            List<Anomaly> l = stored.computeIfAbsent(a.type(), t -> new ArrayList<>());
            if (l.size() < MAX_STORED) {
                l.add(a);
            }
        }
        stored.replaceAll((t, l) -> List.copyOf(l));
        this.stats = stats;
    }

    /** True iff no anomaly of any type was found. */
    public boolean valid() {
        return total() == 0;
    }

    /** Number of anomalies found, stored or not. */
    public long total() {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    /** Number of anomalies of {@code type} found, stored or not. */
    public long count(AnomalyType type) {
        return counts[type.ordinal()];
    }

    /** The stored anomalies of {@code type} (empty if none). */
    public List<Anomaly> violations(AnomalyType type) {
        return stored.getOrDefault(type, List.of());
    }

    /** Every stored anomaly, by type in {@link AnomalyType} order. */
    public List<Anomaly> violations() {
        List<Anomaly> all = new ArrayList<>();
        for (AnomalyType t : AnomalyType.values()) {
            all.addAll(violations(t));
        }
        return all;
    }

    /** What was checked. */
    public Stats stats() {
        return stats;
    }

    /**
     * A multi-line report: the verdict with counts per anomaly type, what was checked, then the first
     * {@code maxPrinted} stored anomalies (one per line) and how many more were found.
     */
    public String summary(int maxPrinted) {
        StringBuilder sb = new StringBuilder();
        if (valid()) {
            sb.append("list-append: valid (no anomaly)");
        } else {
            sb.append("list-append: INVALID: ").append(total()).append(" anomal").append(total() == 1 ? "y" : "ies");
            String sep = " (";
            for (AnomalyType t : AnomalyType.values()) {
                if (counts[t.ordinal()] > 0) {
                    sb.append(sep).append(t.code()).append('=').append(counts[t.ordinal()]);
                    sep = ", ";
                }
            }
            sb.append(')');
        }
        sb.append('\n').append(stats.committed()).append(" committed, ").append(stats.aborted()).append(" aborted, ")
                .append(stats.unknown()).append(" unknown (").append(stats.unknownCommitted())
                .append(" observed, counted committed) transactions; ").append(stats.keys()).append(" keys, ")
                .append(stats.reads()).append(" reads; edges");
        stats.edges().forEach((k, v) -> sb.append(' ').append(k.name().toLowerCase()).append('=').append(v));
        List<Anomaly> all = violations();
        int printed = Math.min(Math.max(0, maxPrinted), all.size());
        for (int i = 0; i < printed; i++) {
            sb.append('\n').append(all.get(i));
        }
        long more = total() - printed;
        if (more > 0) {
            sb.append("\n... and ").append(more).append(" more anomal").append(more == 1 ? "y" : "ies");
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return summary(20);
    }
}
