package org.tebaldi.core.history;

import java.util.List;

/**
 * Checks a merged {@link History} for serializability following Adya's graph-based definition (Adya 1999;
 * dissertation §2.2.3, item-level dependencies only, so repeatable read and serializable coincide):
 *
 * <ul>
 *   <li>G1a aborted reads and G1b intermediate reads by committed transactions;
 *   <li>cycles in the Direct Serialization Graph over committed transactions and T0 — ww edges between
 *       consecutive committed versions of a key, wr edges from a version's writer to its readers, rw edges from
 *       a reader of version i to the writer of version i+1 — found as strongly connected components (iterative
 *       Tarjan), one concrete cycle printed per non-trivial component as G1c (ww/wr only) or G2;
 *   <li>inconsistencies in the record itself (see {@link ViolationType#INCONSISTENT_RECORD}).
 * </ul>
 *
 * Reads of a transaction's own writes, self-edges, and everything done by aborted or unfinished transactions
 * are ignored. Time is linear in the size of the history; memory about 8 bytes per DSG edge (at most one ww edge
 * per committed version and one wr plus one rw edge per committed read), about 60 bytes per transaction and
 * 24 bytes per committed version. Measured: 1M transactions with 20M reads check in about 7 s.
 */
public final class SerializabilityChecker {
    /** Violations of each type kept in a {@link CheckResult} by {@link #check(History)} (all are counted). */
    public static final int DEFAULT_MAX_STORED_PER_TYPE = 1000;

    private SerializabilityChecker() {
    }

    /** {@link #check(History, int)} keeping {@value #DEFAULT_MAX_STORED_PER_TYPE} violations per type. */
    public static CheckResult check(History history) {
        return check(history, DEFAULT_MAX_STORED_PER_TYPE);
    }

    /**
     * Checks {@code history}, keeping at most {@code maxStoredPerType} violations of each type in the result
     * (every violation is counted).
     *
     * @throws IllegalArgumentException if {@code maxStoredPerType} is negative or the DSG has more than
     *     2^31 - 9 edges
     */
    public static CheckResult check(History history, int maxStoredPerType) {
        if (maxStoredPerType < 0) {
            throw new IllegalArgumentException("maxStoredPerType must be >= 0: " + maxStoredPerType);
        }
        ViolationCollector out = new ViolationCollector(maxStoredPerType);
        for (String p : history.recordProblems()) {
            out.report(ViolationType.INCONSISTENT_RECORD,
                    () -> new Violation(ViolationType.INCONSISTENT_RECORD, p, List.of(), List.of()));
        }
        VersionOrders orders = VersionOrders.build(history, out);
        Dsg graph = DsgBuilder.build(history, orders, out);
        CycleReporter.report(graph, history, out);
        return new CheckResult(out.stored(), out.counts(), graph.edgeCounts, history);
    }
}
