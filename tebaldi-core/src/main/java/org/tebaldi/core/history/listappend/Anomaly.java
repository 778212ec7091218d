package org.tebaldi.core.history.listappend;

import java.util.List;

/**
 * One anomaly found by {@link ListAppendChecker}: its type, the transaction ids involved, and a description; for a
 * cycle, its edges in order (each edge's {@code to} is the next edge's {@code from}, the last closes the cycle).
 *
 * @param type   the anomaly
 * @param txns   the transactions involved (ids of {@link ObservedTxn}; {@link ListAppendChecker#FINAL_READ} for
 *               the final read)
 * @param detail one line: keys, values and lists that show it
 * @param cycle  the cycle's edges; empty for anomalies that are not cycles
 */
public record Anomaly(AnomalyType type, List<Long> txns, String detail, List<Edge> cycle) {
    /** A dependency edge of a cycle, on one key. */
    public record Edge(long from, long to, EdgeKind kind, String key) {
        @Override
        public String toString() {
            return "T" + from + " -" + kind.name().toLowerCase() + "(" + key + ")-> T" + to;
        }
    }

    /** Copies the lists. */
    public Anomaly {
        txns = List.copyOf(txns);
        cycle = List.copyOf(cycle);
    }

    @Override
    public String toString() {
        return type.code() + " " + txns + ": " + detail;
    }
}
