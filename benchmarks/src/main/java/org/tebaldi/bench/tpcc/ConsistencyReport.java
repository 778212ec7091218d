package org.tebaldi.bench.tpcc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Outcome of {@link TpccConsistency#check}: every violation found, counted per check, the first
 * {@link #MAX_STORED} kept with where and the numbers involved. Immutable once returned.
 */
public final class ConsistencyReport {
    /** Violations kept (all are counted). */
    public static final int MAX_STORED = 100;

    /** What was checked. {@link #condition()} is the TPC-C §3.3.2 condition number, 0 for adaptation checks. */
    public enum Check {
        /** §3.3.2.1: W_YTD = sum(D_YTD) per warehouse. */
        WAREHOUSE_YTD(1),
        /** §3.3.2.2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) per district (new_order part only if non-empty). */
        NEXT_ORDER_ID(2),
        /** §3.3.2.3: max(NO_O_ID) - min(NO_O_ID) + 1 = number of new_order rows per district. */
        NEW_ORDER_RANGE(3),
        /** §3.3.2.4: sum(O_OL_CNT) = number of order_line rows per district. */
        ORDER_LINE_COUNT(4),
        /**
         * Adaptation: each customer_last_order row names an existing order of that customer, the customer's
         * latest; every customer with an order has a row.
         */
        LAST_ORDER_INDEX(0),
        /**
         * Adaptation: district_deliv.d_next_deliv_o_id = min(NO_O_ID), or D_NEXT_O_ID when the district has no
         * new_order row.
         */
        DELIVERY_CURSOR(0);

        private final int condition;

        Check(int condition) {
            this.condition = condition;
        }

        /** TPC-C §3.3.2 condition number, or 0 for a check of the key-value adaptation. */
        public int condition() {
            return condition;
        }
    }

    /**
     * One violation.
     *
     * @param check  the check that failed
     * @param where  the warehouse / district / customer, e.g. {@code district (1, 3)}
     * @param detail the numbers, e.g. {@code D_NEXT_O_ID - 1 = 3004 but max(O_ID) = 3003}
     */
    public record Violation(Check check, String where, String detail) {
        @Override
        public String toString() {
            String c = check.condition() > 0 ? "condition " + check.condition() + " " : "";
            return c + check + " at " + where + ": " + detail;
        }
    }

    private final List<Violation> stored = new ArrayList<>();
    private final Map<Check, Long> counts = new EnumMap<>(Check.class);
    private final Map<String, Long> rowsScanned;

    ConsistencyReport(Map<String, Long> rowsScanned) {
        this.rowsScanned = rowsScanned;
        for (Check c : Check.values()) {
            counts.put(c, 0L);
        }
    }

    void add(Check check, String where, String detail) {
        counts.merge(check, 1L, Long::sum);
        if (stored.size() < MAX_STORED) {
            stored.add(new Violation(check, where, detail));
        }
    }

    /** True iff no check failed. */
    public boolean ok() {
        return violationCount() == 0;
    }

    /** The stored violations, in discovery order. */
    public List<Violation> violations() {
        return Collections.unmodifiableList(stored);
    }

    /** Number of violations of every check (all found, stored or not). */
    public long violationCount() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Number of violations of one check. */
    public long violationCount(Check check) {
        return counts.get(check);
    }

    /** Rows seen per scanned table name. */
    public Map<String, Long> rowsScanned() {
        return Collections.unmodifiableMap(rowsScanned);
    }

    /** {@link #summary(int)} with up to 20 violations. */
    public String summary() {
        return summary(20);
    }

    /** One line if consistent, else the counts per check and up to {@code max} violations, one per line. */
    public String summary(int max) {
        if (ok()) {
            return "TPC-C consistency: all conditions hold (rows scanned " + rowsScanned + ")";
        }
        StringBuilder b = new StringBuilder("TPC-C consistency: " + violationCount() + " violations");
        counts.forEach((c, n) -> {
            if (n > 0) {
                b.append(' ').append(c).append('=').append(n);
            }
        });
        stored.stream().limit(max).forEach(v -> b.append("\n  ").append(v));
        if (violationCount() > Math.min(max, stored.size())) {
            b.append("\n  ...");
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return summary();
    }
}
