package org.tebaldi.core.proc.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The statement-level dependence graph of a {@link ProcTree} (package-private). An edge {@code a -> b} means
 * {@code b} must not run in an earlier step than {@code a}. Kinds:
 * <ul>
 *   <li>{@link Kind#DATA}: {@code b} reads a local (or loop variable) that {@code a} assigns and that reaches it,
 *       loop-carried reaches included;</li>
 *   <li>{@link Kind#CONTROL}: {@code a} is the {@code if}/{@code for} header directly enclosing {@code b};</li>
 *   <li>{@link Kind#GUARD}: {@code a} is an {@code abort} inside an {@code if} (a guard) whose condition reads a
 *       local that {@code b} reads, and {@code b} can run after the guard: a statement the guard protects (e.g.
 *       {@code field(c, ..)} after {@code abortIf(isNull(local("c")))}) never runs before the guard decides;</li>
 *   <li>{@link Kind#ORDER}: ordering without a value flowing: loop-independent anti and output dependencies on
 *       locals, {@code output}s of one name (a later one replaces an earlier one), and user aborts (kept in program
 *       order; within a loop all in one step, so the first abort a run reaches is the same).</li>
 * </ul>
 */
final class DepGraph {
    enum Kind { DATA, CONTROL, GUARD, ORDER }

    record Edge(Node from, Node to, Kind kind) {
    }

    final ProcTree tree;
    private final List<List<Edge>> preds = new ArrayList<>();
    private final List<List<Edge>> succs = new ArrayList<>();
    private final Set<Edge> seen = new HashSet<>();

    private DepGraph(ProcTree tree) {
        this.tree = tree;
        for (int i = 0; i < tree.nodes.size(); i++) {
            preds.add(new ArrayList<>());
            succs.add(new ArrayList<>());
        }
    }

    /** Builds the graph of {@code t}. */
    static DepGraph of(ProcTree t) {
        DepGraph g = new DepGraph(t);
        DataFlow f = DataFlow.run(t);
        List<Node> aborts = new ArrayList<>();
        for (Node n : t.nodes) {
            if (n.parent != null) {
                g.add(n.parent, n, Kind.CONTROL);
            }
            f.reachingAll(n).forEach((v, defs) -> {
                for (Node d : defs) {
                    g.add(d, n, v.startsWith(Node.OUTPUT_VAR) ? Kind.ORDER : Kind.DATA);
                }
            });
            if (n.isAbort()) {
                aborts.add(n);
            }
        }
        for (List<Node> pair : f.orderPairs()) {
            g.add(pair.get(0), pair.get(1), Kind.ORDER);
        }
        for (int i = 0; i < aborts.size(); i++) {
            for (int j = i + 1; j < aborts.size(); j++) {
                g.add(aborts.get(i), aborts.get(j), Kind.ORDER);
                if (shareLoop(aborts.get(i), aborts.get(j))) {
                    g.add(aborts.get(j), aborts.get(i), Kind.ORDER);
                }
            }
        }
        for (Node guard : t.nodes) {
            if (guard.kind == Node.Kind.IF && guard.condLet != null) {
                g.guard(guard, aborts);
            }
        }
        Comparator<Edge> byFrom = Comparator.comparingInt(e -> e.from().id);
        g.preds.forEach(l -> l.sort(byFrom));
        g.succs.forEach(l -> l.sort(Comparator.comparingInt(e -> e.to().id)));
        return g;
    }

    private void guard(Node g, List<Node> aborts) {
        List<Node> inside = aborts.stream().filter(g::contains).toList();
        if (inside.isEmpty()) {
            return;
        }
        Set<String> tested = g.condLet.reads();
        for (Node s : tree.nodes) {
            if (s == g || g.contains(s) || s == g.condLet) {
                continue;
            }
            boolean after = s.id > g.last || shareLoop(g, s);
            if (after && s.reads().stream().anyMatch(tested::contains)) {
                for (Node a : inside) {
                    add(a, s, Kind.GUARD);
                }
            }
        }
    }

    /** True if some loop encloses both nodes. */
    static boolean shareLoop(Node a, Node b) {
        for (Node l : a.loops()) {
            if (l.contains(b)) {
                return true;
            }
        }
        return false;
    }

    private void add(Node from, Node to, Kind kind) {
        if (from == to) {
            return;
        }
        Edge e = new Edge(from, to, kind);
        if (seen.add(e)) {
            preds.get(to.id).add(e);
            succs.get(from.id).add(e);
        }
    }

    /** Edges into {@code n}, by source id. */
    List<Edge> preds(Node n) {
        return preds.get(n.id);
    }

    /** Edges out of {@code n}, by target id. */
    List<Edge> succs(Node n) {
        return succs.get(n.id);
    }

    /**
     * The access nodes from which {@code n} is reachable backwards through edges of the given kinds (itself
     * excluded unless on a cycle), in id order.
     */
    Set<Node> accessesBefore(Node n, Set<Kind> kinds) {
        Set<Node> visited = new HashSet<>();
        List<Node> stack = new ArrayList<>(List.of(n));
        while (!stack.isEmpty()) {
            Node x = stack.remove(stack.size() - 1);
            for (Edge e : preds(x)) {
                if (kinds.contains(e.kind()) && visited.add(e.from())) {
                    stack.add(e.from());
                }
            }
        }
        Set<Node> out = new LinkedHashSet<>();
        tree.nodes.stream().filter(x -> visited.contains(x) && x.isAccess() && x != n).forEach(out::add);
        return out;
    }
}
