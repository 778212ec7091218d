package org.tebaldi.core.proc.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.tebaldi.core.proc.ProcedureException;

/**
 * Assigns every node of a {@link ProcTree} the step ("part") in which the reordered procedure runs it
 * (package-private). Rules, applied until nothing changes:
 * <ol>
 *   <li>An access to a table of step {@code s >= 0} runs in step {@code s}; every other node starts in
 *       {@link #FREE} (before all steps).</li>
 *   <li>Along every {@link DepGraph} edge the step never decreases (least fixpoint); an access pushed above its
 *       table's step makes the order impossible: {@link ProcedureException} naming both accesses.</li>
 *   <li>Anchoring: a computation (let, newArray, setElem, output) is not hoisted above a user abort that
 *       precedes it in program order when it can run in the abort's step without delaying anything, so a
 *       computation that would fail only where the abort fires still sees the abort first.</li>
 *   <li>Home rule: inside a loop whose body spans several steps (a split loop), all assignments of one local
 *       run in one step, the highest of them (raising computations); if two accesses of different steps assign
 *       the same local there, the loop cannot be split: {@link ProcedureException}.</li>
 * </ol>
 */
final class Placement {
    /** The part before every step: statements that depend on no access of a step. */
    static final int FREE = -1;

    private final ProcTree tree;
    private final DepGraph graph;
    private final int[] step;
    private final int[] base;
    private int[] part;
    private Node[] cause;

    private Placement(ProcTree tree, DepGraph graph, ToIntFunction<String> stepOf) {
        this.tree = tree;
        this.graph = graph;
        int n = tree.nodes.size();
        step = new int[n];
        base = new int[n];
        for (Node x : tree.nodes) {
            int s = FREE;
            if (x.isAccess()) {
                s = stepOf.applyAsInt(x.access().table());
                if (s < FREE) {
                    throw new IllegalArgumentException("step of table " + x.access().table() + " is " + s
                            + "; steps are >= 0, or -1 for a table accessible in any step");
                }
            }
            step[x.id] = s;
            base[x.id] = s;
        }
    }

    /**
     * Places the nodes of {@code t}.
     *
     * @throws ProcedureException if the accesses cannot run in non-decreasing step order
     */
    static Placement solve(ProcTree t, DepGraph g, ToIntFunction<String> stepOf) {
        Placement p = new Placement(t, g, stepOf);
        while (true) {
            p.fixpoint();
            if (p.anchor()) {
                p.fixpoint();
            }
            if (!p.homeRule()) {
                return p;
            }
        }
    }

    /** The part of {@code n}. */
    int part(Node n) {
        return part[n.id];
    }

    /** True if {@code n} is an access to a table of a step (not movable). */
    boolean fixed(Node n) {
        return step[n.id] != FREE;
    }

    private void fixpoint() {
        part = base.clone();
        cause = new Node[part.length];
        ArrayDeque<Node> work = new ArrayDeque<>(tree.nodes);
        boolean[] queued = new boolean[part.length];
        java.util.Arrays.fill(queued, true);
        while (!work.isEmpty()) {
            Node x = work.poll();
            queued[x.id] = false;
            int best = part[x.id];
            Node why = null;
            for (DepGraph.Edge e : graph.preds(x)) {
                if (part[e.from().id] > best) {
                    best = part[e.from().id];
                    why = e.from();
                }
            }
            if (why == null) {
                continue;
            }
            part[x.id] = best;
            cause[x.id] = why;
            if (fixed(x) && best > step[x.id]) {
                throw impossible(x);
            }
            for (DepGraph.Edge e : graph.succs(x)) {
                if (!queued[e.to().id]) {
                    queued[e.to().id] = true;
                    work.add(e.to());
                }
            }
        }
    }

    private ProcedureException impossible(Node x) {
        Node o = x;
        while (cause[o.id] != null) {
            o = cause[o.id];
        }
        String head = tree.proc.name() + ": accesses cannot run in step order: " + x.where() + " on table "
                + x.access().table() + " (step " + step[x.id] + ")";
        if (o.isAccess() && fixed(o)) {
            return new ProcedureException(head + " depends on " + o.where() + " on table " + o.access().table()
                    + " (step " + step[o.id] + ")");
        }
        return new ProcedureException(head + " must follow " + o.where() + ", which has to run in step "
                + part[o.id] + " with the other assignments of its local in its loop");
    }

    private boolean anchor() {
        int max = FREE;
        for (int p : part) {
            max = Math.max(max, p);
        }
        boolean changed = false;
        int abortPart = FREE;
        for (Node s : tree.nodes) {
            if (s.isAbort()) {
                abortPart = Math.max(abortPart, part[s.id]);
                continue;
            }
            if (s.kind != Node.Kind.ATOMIC || s.isAccess() || abortPart <= part[s.id]) {
                continue;
            }
            int latest = max;
            for (DepGraph.Edge e : graph.succs(s)) {
                latest = Math.min(latest, part[e.to().id]);
            }
            int target = Math.min(latest, abortPart);
            if (target > part[s.id]) {
                base[s.id] = Math.max(base[s.id], target);
                changed = true;
            }
        }
        return changed;
    }

    private boolean homeRule() {
        boolean changed = false;
        for (Node loop : tree.nodes) {
            if (loop.kind != Node.Kind.FOR || !isSplit(loop)) {
                continue;
            }
            Map<String, List<Node>> defs = new LinkedHashMap<>();
            for (int i = loop.id + 1; i <= loop.last; i++) {
                Node d = tree.nodes.get(i);
                if (d.localDef() != null) {
                    defs.computeIfAbsent(d.localDef(), k -> new ArrayList<>()).add(d);
                }
            }
            for (Map.Entry<String, List<Node>> e : defs.entrySet()) {
                Node top = e.getValue().get(0);
                for (Node d : e.getValue()) {
                    if (part[d.id] > part[top.id]) {
                        top = d;
                    }
                }
                for (Node d : e.getValue()) {
                    if (part[d.id] == part[top.id]) {
                        continue;
                    }
                    if (fixed(d)) {
                        throw new ProcedureException(tree.proc.name() + ": cannot split " + loop.where()
                                + " by step: local '" + tree.original(e.getKey()) + "' is assigned in step "
                                + part[d.id] + " by " + d.where() + " and in step " + part[top.id] + " by "
                                + top.where() + " inside the loop; use distinct locals");
                    }
                    base[d.id] = Math.max(base[d.id], part[top.id]);
                    changed = true;
                }
            }
        }
        return changed;
    }

    /** True if the atomic statements inside {@code loop} run in more than one part. */
    boolean isSplit(Node loop) {
        Integer seen = null;
        for (int i = loop.id + 1; i <= loop.last; i++) {
            Node d = tree.nodes.get(i);
            if (d.kind == Node.Kind.ATOMIC) {
                if (seen == null) {
                    seen = part[d.id];
                } else if (seen != part[d.id]) {
                    return true;
                }
            }
        }
        return false;
    }
}
