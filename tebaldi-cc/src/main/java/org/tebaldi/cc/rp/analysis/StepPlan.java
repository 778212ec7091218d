package org.tebaldi.cc.rp.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Runtime pipelining's steps (dissertation §4.4.2, §2.3.1; Callas §4): the strongly connected components of a
 * {@link TableGraph} (tables on a dependency cycle merge into one step, Tarjan's algorithm), topologically
 * sorted. Step {@code i} (from 1) holds the tables of the {@code i}-th component; a transaction runs step
 * {@code i}'s accesses before any of step {@code i + 1}.
 *
 * <p>Deterministic tie-break among components that could come next (Kahn's algorithm with a priority): first the
 * outer plan's step when there is one, then first appearance in the group's types ({@link TableGraph#tables()}).
 * The outer plan is the plan of the nearest runtime-pipelining ancestor in the CC tree; "parents' reorderings take
 * priority" (dissertation §5.4.2), so this plan never puts a table after one the outer plan puts in a later step.
 * That is always possible when this group's graph is a subgraph of the ancestor's (its types are among the
 * ancestor's): a component is held back only by predecessors, whose outer steps are no later than its own.
 *
 * <p>Immutable. Example ({@code describe()}): {@code "1:{warehouse} 2:{district} 3:{customer} 4:{stock, order_line}"}.
 */
public final class StepPlan {
    private final List<Set<String>> steps;
    private final Map<String, Integer> stepOf;

    private StepPlan(List<Set<String>> steps) {
        this.steps = steps;
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            for (String t : steps.get(i)) {
                m.put(t, i + 1);
            }
        }
        this.stepOf = m;
    }

    /**
     * The plan of {@code graph}.
     *
     * @param outer the plan of the nearest runtime-pipelining ancestor, or null
     * @throws IllegalArgumentException if {@code outer} is given but this plan cannot be consistent with it: a
     *                                  table of the graph in no step of {@code outer}, or an edge of the graph
     *                                  against the outer order (the graph is not a subgraph of the outer one)
     */
    public static StepPlan of(TableGraph graph, StepPlan outer) {
        List<String> tables = graph.tables();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < tables.size(); i++) {
            index.put(tables.get(i), i);
        }
        List<List<String>> comps = Tarjan.components(tables, graph::successors);
        int[] compOf = new int[tables.size()];
        for (int c = 0; c < comps.size(); c++) {
            for (String t : comps.get(c)) {
                compOf[index.get(t)] = c;
            }
        }
        int[] indegree = new int[comps.size()];
        List<Set<Integer>> next = new ArrayList<>();
        comps.forEach(c -> next.add(new LinkedHashSet<>()));
        for (String t : tables) {
            for (String u : graph.successors(t)) {
                int a = compOf[index.get(t)];
                int b = compOf[index.get(u)];
                if (a != b && next.get(a).add(b)) {
                    indegree[b]++;
                }
            }
        }
        int[] outerStep = new int[comps.size()];
        int[] first = new int[comps.size()];
        for (int c = 0; c < comps.size(); c++) {
            outerStep[c] = Integer.MAX_VALUE;
            first[c] = Integer.MAX_VALUE;
            for (String t : comps.get(c)) {
                first[c] = Math.min(first[c], index.get(t));
                if (outer != null) {
                    int s = outer.stepOf(t);
                    if (s < 0) {
                        throw new IllegalArgumentException("table " + t + " is in no step of the outer plan "
                                + outer.describe() + "; a nested runtime-pipelining group must access only tables"
                                + " of its ancestor's group");
                    }
                    outerStep[c] = Math.min(outerStep[c], s);
                }
            }
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>((x, y) -> outerStep[x] != outerStep[y]
                ? Integer.compare(outerStep[x], outerStep[y]) : Integer.compare(first[x], first[y]));
        IntStream.range(0, comps.size()).filter(c -> indegree[c] == 0).forEach(ready::add);
        List<Set<String>> steps = new ArrayList<>();
        while (!ready.isEmpty()) {
            int c = ready.poll();
            List<String> members = new ArrayList<>(comps.get(c));
            members.sort((x, y) -> Integer.compare(index.get(x), index.get(y)));
            steps.add(Collections.unmodifiableSet(new LinkedHashSet<>(members)));
            for (int d : next.get(c)) {
                if (--indegree[d] == 0) {
                    ready.add(d);
                }
            }
        }
        StepPlan plan = new StepPlan(Collections.unmodifiableList(steps));
        if (outer != null) {
            plan.checkConsistentWith(outer);
        }
        return plan;
    }

    private void checkConsistentWith(StepPlan outer) {
        for (String a : stepOf.keySet()) {
            for (String b : stepOf.keySet()) {
                if (outer.stepOf(a) < outer.stepOf(b) && stepOf(a) > stepOf(b)) {
                    throw new IllegalArgumentException("the group's table graph orders " + b + " before " + a
                            + " (steps " + stepOf(b) + ", " + stepOf(a) + " of " + describe()
                            + ") but the outer plan puts " + a + " in step " + outer.stepOf(a) + " before " + b
                            + " in step " + outer.stepOf(b) + " (" + outer.describe()
                            + "); a nested group's table graph must be a subgraph of its ancestor's");
                }
            }
        }
    }

    /** The step of {@code table}, from 1; -1 if it is in no step (replicated, or not accessed by the group). */
    public int stepOf(String table) {
        return stepOf.getOrDefault(table, -1);
    }

    /** The tables of each step: element {@code i} is step {@code i + 1}; tables in order of first appearance. */
    public List<Set<String>> steps() {
        return steps;
    }

    /** Number of steps. */
    public int size() {
        return steps.size();
    }

    /** E.g. {@code "1:{warehouse} 2:{district} 3:{stock, order_line}"}. */
    public String describe() {
        return IntStream.range(0, steps.size())
                .mapToObj(i -> (i + 1) + ":{" + String.join(", ", steps.get(i)) + "}")
                .collect(Collectors.joining(" "));
    }

    @Override
    public String toString() {
        return describe();
    }
}
