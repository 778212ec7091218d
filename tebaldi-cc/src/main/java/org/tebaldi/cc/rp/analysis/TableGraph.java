package org.tebaldi.cc.rp.analysis;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.analysis.Dependencies;

/**
 * Runtime pipelining's table graph over a group of transaction types (dissertation §4.4.2: "a directed graph of
 * tables, with edges representing transactional data / control-flow dependencies"; Callas §4): an edge
 * {@code A -> B} when some access to {@code B} depends on an access to {@code A}, i.e. must run after it.
 * <ul>
 *   <li>stored procedures: from {@link Dependencies}, both {@code dependsOn} and {@code orderedAfter} (the
 *       reorderer honours both, so a plan that respects the graph can always be reached by reordering);</li>
 *   <li>interactive types: their declared access order ({@link TxnType#accessOrder()}), each table after the
 *       previous one (consecutive edges; the runtime cannot reorder interactive code).</li>
 * </ul>
 * Replicated (read-only) tables are left out: they never conflict and belong to no step. Self-edges are dropped.
 * Tables are listed in order of first appearance (types in the given order, accesses in program order), the
 * tie-break {@link StepPlan} uses.
 */
public final class TableGraph {
    private final Map<String, Set<String>> successors;

    private TableGraph(Map<String, Set<String>> successors) {
        this.successors = successors;
    }

    /**
     * Builds the graph of {@code types}.
     *
     * @throws IllegalArgumentException for an interactive type that declares no access order
     */
    public static TableGraph of(Collection<TxnType> types, Catalog catalog) {
        Map<String, Set<String>> succ = new LinkedHashMap<>();
        for (TxnType t : types) {
            if (t.isProcedure()) {
                Dependencies d = Dependencies.of(t.procedure());
                for (Dependencies.AccessDeps a : d.accesses()) {
                    if (!replicated(catalog, a.table())) {
                        node(succ, a.table());
                    }
                }
                for (Dependencies.AccessDeps a : d.accesses()) {
                    if (replicated(catalog, a.table())) {
                        continue;
                    }
                    Set<Integer> before = new LinkedHashSet<>(a.dependsOn());
                    before.addAll(a.orderedAfter());
                    for (int s : before) {
                        edge(succ, catalog, d.access(s).table(), a.table());
                    }
                }
            } else {
                if (t.accessOrder().isEmpty()) {
                    throw new IllegalArgumentException("runtime pipelining needs the table access order of "
                            + "interactive type '" + t.name() + "'; declare it with Database.interactive(name, "
                            + "readOnly, accessOrder, params...)");
                }
                String prev = null;
                for (String table : t.accessOrder()) {
                    if (replicated(catalog, table)) {
                        continue;
                    }
                    node(succ, table);
                    if (prev != null) {
                        edge(succ, catalog, prev, table);
                    }
                    prev = table;
                }
            }
        }
        Map<String, Set<String>> frozen = new LinkedHashMap<>();
        succ.forEach((k, v) -> frozen.put(k, Collections.unmodifiableSet(v)));
        return new TableGraph(Collections.unmodifiableMap(frozen));
    }

    private static boolean replicated(Catalog catalog, String table) {
        return catalog.table(table).replicated();
    }

    private static void node(Map<String, Set<String>> succ, String table) {
        succ.computeIfAbsent(table, k -> new LinkedHashSet<>());
    }

    private static void edge(Map<String, Set<String>> succ, Catalog catalog, String from, String to) {
        if (!from.equals(to) && !replicated(catalog, from)) {
            succ.get(from).add(to);
        }
    }

    /** Non-replicated tables the group accesses, in order of first appearance. */
    public List<String> tables() {
        return new ArrayList<>(successors.keySet());
    }

    /** Tables with an edge from {@code table} (empty for an unknown table). */
    public Set<String> successors(String table) {
        return successors.getOrDefault(table, Set.of());
    }

    /** True if an access to {@code to} depends on an access to {@code from}. */
    public boolean hasEdge(String from, String to) {
        return successors(from).contains(to);
    }

    /** E.g. {@code "district -> oorder, order_line; stock -> order_line; warehouse"}: every table, its successors. */
    public String describe() {
        return successors.entrySet().stream()
                .map(e -> e.getValue().isEmpty() ? e.getKey() : e.getKey() + " -> " + String.join(", ", e.getValue()))
                .collect(Collectors.joining("; "));
    }

    @Override
    public String toString() {
        return describe();
    }
}
