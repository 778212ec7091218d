package org.tebaldi.core.history;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Outcome of {@link SerializabilityChecker#check}: whether the history is serializable (no violation of any
 * {@link ViolationType}, including an inconsistent record), the violations found, and counts. The stored list
 * keeps at most the checker's per-type limit of violations; {@link #violationCount} counts all. Immutable.
 */
public final class CheckResult {
    /** Violations {@link #summary()} prints before "... and N more". */
    public static final int DEFAULT_PRINTED = 20;

    private final List<Violation> violations;
    private final long[] violationCounts;
    private final long[] edgeCounts;
    private final int committed;
    private final int aborted;
    private final int unfinished;
    private final int reads;

    CheckResult(List<Violation> violations, long[] violationCounts, long[] edgeCounts, History h) {
        this.violations = List.copyOf(violations);
        this.violationCounts = violationCounts.clone();
        this.edgeCounts = edgeCounts.clone();
        this.committed = h.committedCount();
        this.aborted = h.abortedCount();
        this.unfinished = h.unfinishedCount();
        this.reads = h.readCount();
    }

    CheckResult(List<Violation> violations, long[] violationCounts, long[] edgeCounts, int committed, int aborted,
            int unfinished, int reads) {
        this.violations = List.copyOf(violations);
        this.violationCounts = violationCounts.clone();
        this.edgeCounts = edgeCounts.clone();
        this.committed = committed;
        this.aborted = aborted;
        this.unfinished = unfinished;
        this.reads = reads;
    }

    /** True iff no violation of any type was found. */
    public boolean serializable() {
        return violationCount() == 0;
    }

    /** The stored violations in discovery order (record problems, read anomalies, then cycles). */
    public List<Violation> violations() {
        return violations;
    }

    /** The stored violations of one type. */
    public List<Violation> violations(ViolationType type) {
        return violations.stream().filter(v -> v.type() == type).toList();
    }

    /** Number of violations found, stored or not. */
    public long violationCount() {
        long n = 0;
        for (long c : violationCounts) {
            n += c;
        }
        return n;
    }

    /** Number of violations of {@code type} found, stored or not (for cycles: non-trivial SCCs). */
    public long violationCount(ViolationType type) {
        return violationCounts[type.ordinal()];
    }

    /** Committed transactions, not counting T0. */
    public int committed() {
        return committed;
    }

    /** Aborted transactions. */
    public int aborted() {
        return aborted;
    }

    /** Transactions without a logged outcome. */
    public int unfinished() {
        return unfinished;
    }

    /** Reads in the history (by transactions of any outcome). */
    public int reads() {
        return reads;
    }

    /** DSG edges of {@code type} among committed transactions and T0 (parallel edges on different keys count). */
    public long edges(EdgeType type) {
        return edgeCounts[type.ordinal()];
    }

    /** DSG edge counts by type. */
    public Map<EdgeType, Long> edgeCounts() {
        Map<EdgeType, Long> m = new EnumMap<>(EdgeType.class);
        for (EdgeType t : EdgeType.values()) {
            m.put(t, edgeCounts[t.ordinal()]);
        }
        return Collections.unmodifiableMap(m);
    }

    /** {@link #summary(int)} printing the first {@value #DEFAULT_PRINTED} violations. */
    public String summary() {
        return summary(DEFAULT_PRINTED);
    }

    /**
     * A multi-line report: verdict with counts per violation type, transaction and edge counts, then the first
     * {@code maxPrinted} violations (one per line) and how many more were found.
     */
    public String summary(int maxPrinted) {
        StringBuilder sb = new StringBuilder();
        if (serializable()) {
            sb.append("serializable");
        } else {
            sb.append("NOT serializable: ").append(violationCount()).append(" violation(s)");
            String sep = " (";
            for (ViolationType t : ViolationType.values()) {
                if (violationCounts[t.ordinal()] > 0) {
                    sb.append(sep).append(t.code()).append('=').append(violationCounts[t.ordinal()]);
                    sep = ", ";
                }
            }
            sb.append(')');
        }
        sb.append('\n').append(committed).append(" committed, ").append(aborted).append(" aborted, ")
                .append(unfinished).append(" unfinished transactions; ").append(reads).append(" reads; DSG edges");
        for (EdgeType t : EdgeType.values()) {
            sb.append(' ').append(t.label()).append('=').append(edgeCounts[t.ordinal()]);
        }
        int printed = Math.min(Math.max(0, maxPrinted), violations.size());
        for (int i = 0; i < printed; i++) {
            sb.append('\n').append(violations.get(i));
        }
        long more = violationCount() - printed;
        if (more > 0) {
            sb.append("\n... and ").append(more).append(" more violation(s)");
        }
        return sb.toString();
    }

    /** Same as {@link #summary()}. */
    @Override
    public String toString() {
        return summary();
    }
}
