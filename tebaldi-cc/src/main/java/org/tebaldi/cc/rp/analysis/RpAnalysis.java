package org.tebaldi.cc.rp.analysis;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToIntFunction;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.ProcedureException;
import org.tebaldi.core.proc.analysis.Reorderer;

/**
 * Runtime pipelining's CC-specific preprocessing for one group (dissertation §4.4.2, §5.4.2; Callas §4): builds
 * the group's {@link TableGraph}, its {@link StepPlan} (consistent with the nearest RP ancestor's plan when
 * nested), and reorders each stored procedure of the group so that it issues its accesses in non-decreasing step
 * order ({@link Reorderer}); the RP runtime then derives an operation's step from its table.
 *
 * <p>Interactive types cannot be reordered: the plan must already follow their declared access order. It does by
 * construction: their consecutive tables are edges of the table graph, so a cycle with other types' dependencies
 * merges those tables into one step rather than contradicting the declared order.
 *
 * <p>Nested RP: with an outer plan, each procedure is reordered by the pair (this plan's step, outer step), so the
 * result is in step order for this group and for every RP ancestor, whichever rewrite the TC runs
 * (the deepest, see {@code TcPart#procedure}).
 */
public final class RpAnalysis {
    private RpAnalysis() {
    }

    /**
     * What the analysis found.
     *
     * @param graph      the group's table graph
     * @param plan       its steps
     * @param procedures per stored-procedure type name, the reordered procedure (insertion order of the types)
     */
    public record Result(TableGraph graph, StepPlan plan, Map<String, Procedure> procedures) {
        /** Copies the map. */
        public Result {
            procedures = Collections.unmodifiableMap(new LinkedHashMap<>(procedures));
        }

        /**
         * The reordered procedure of type {@code type}.
         *
         * @throws IllegalArgumentException if the group has no stored-procedure type of that name
         */
        public Procedure procedure(String type) {
            Procedure p = procedures.get(type);
            if (p == null) {
                throw new IllegalArgumentException("no stored procedure '" + type + "' in the group; procedures: "
                        + procedures.keySet());
            }
            return p;
        }
    }

    /**
     * Analyzes a group.
     *
     * @param types   the group's transaction types (stored procedures and interactive types)
     * @param catalog the tables (replicated tables belong to no step)
     * @param outer   the plan of the nearest runtime-pipelining ancestor, or null
     * @throws IllegalArgumentException for an interactive type without a declared access order, or a plan
     *                                  inconsistent with {@code outer} (see {@link StepPlan#of})
     * @throws ProcedureException       if a procedure cannot be reordered into the plan's order (see
     *                                  {@link Reorderer}; e.g. one local assigned by accesses of two steps in a
     *                                  loop)
     */
    public static Result analyze(Collection<TxnType> types, Catalog catalog, StepPlan outer) {
        TableGraph graph = TableGraph.of(types, catalog);
        StepPlan plan = StepPlan.of(graph, outer);
        ToIntFunction<String> step = stepFunction(plan, outer, catalog);
        Map<String, Procedure> procedures = new LinkedHashMap<>();
        for (TxnType t : types) {
            if (t.isProcedure()) {
                procedures.put(t.name(), Reorderer.reorder(t.procedure(), step));
            }
        }
        return new Result(graph, plan, procedures);
    }

    /** This plan's step, refined by the outer step when nested; -1 for replicated tables and tables in no step. */
    private static ToIntFunction<String> stepFunction(StepPlan plan, StepPlan outer, Catalog catalog) {
        if (outer == null) {
            return t -> catalog.table(t).replicated() ? -1 : plan.stepOf(t);
        }
        TreeSet<List<Integer>> pairs = new TreeSet<>((a, b) -> a.get(0).equals(b.get(0))
                ? Integer.compare(a.get(1), b.get(1)) : Integer.compare(a.get(0), b.get(0)));
        for (Collection<String> s : plan.steps()) {
            for (String t : s) {
                pairs.add(List.of(plan.stepOf(t), outer.stepOf(t)));
            }
        }
        Map<List<Integer>, Integer> rank = new HashMap<>();
        new ArrayList<>(pairs).forEach(p -> rank.put(p, rank.size()));
        return t -> catalog.table(t).replicated() || plan.stepOf(t) < 0 ? -1
                : rank.get(List.of(plan.stepOf(t), outer.stepOf(t)));
    }
}
