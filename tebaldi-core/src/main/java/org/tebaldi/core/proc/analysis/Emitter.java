package org.tebaldi.core.proc.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.tebaldi.core.proc.Stmt;

/**
 * Writes the reordered body (package-private): for each part in increasing order, the projection of the tree on
 * that part. A projection keeps the part's atomic statements in program order and a copy of every {@code if} /
 * {@code for} that contains statements of the part (loop fission, and {@code if} splitting on the condition temp
 * evaluated once); {@link Carries} adds the scalar expansion of locals carried between parts of a loop.
 */
final class Emitter {
    private final ProcTree tree;
    private final Placement placement;
    private final Map<Node, SortedSet<Integer>> copyParts = new HashMap<>();
    private final Carries carries;

    Emitter(ProcTree tree, Placement placement) {
        this.tree = tree;
        this.placement = placement;
        for (Node n : tree.root) {
            collect(n);
        }
        this.carries = new Carries(tree, placement, copyParts);
    }

    /** Parts of the atomic statements in {@code n}'s subtree; a compound node without any runs in its own part. */
    private SortedSet<Integer> collect(Node n) {
        SortedSet<Integer> parts = new TreeSet<>();
        if (n.kind == Node.Kind.ATOMIC) {
            parts.add(placement.part(n));
            return parts;
        }
        for (List<Node> b : n.blocks) {
            for (Node c : b) {
                parts.addAll(collect(c));
            }
        }
        if (parts.isEmpty()) {
            parts.add(placement.part(n));
        }
        copyParts.put(n, parts);
        return parts;
    }

    /** The reordered body (before tidying). */
    List<Stmt> emit() {
        SortedSet<Integer> parts = new TreeSet<>();
        for (Node n : tree.root) {
            parts.addAll(n.kind == Node.Kind.ATOMIC ? List.of(placement.part(n)) : copyParts.get(n));
        }
        List<Stmt> out = new ArrayList<>(carries.preamble());
        for (int p : parts) {
            out.addAll(block(tree.root, p));
        }
        return out;
    }

    private List<Stmt> block(List<Node> nodes, int p) {
        List<Stmt> out = new ArrayList<>();
        for (Node n : nodes) {
            if (n.kind == Node.Kind.ATOMIC) {
                if (placement.part(n) == p) {
                    out.add(carries.rewrite(n, p, n.stmt));
                }
                continue;
            }
            SortedSet<Integer> parts = copyParts.get(n);
            if (!parts.contains(p)) {
                continue;
            }
            Stmt h = carries.rewrite(n, p, n.stmt);
            if (h instanceof Stmt.If i) {
                out.add(new Stmt.If(i.cond(), block(n.blocks.get(0), p), block(n.blocks.get(1), p)));
            } else {
                Stmt.For f = (Stmt.For) h;
                if (p == parts.first()) {
                    out.addAll(carries.allocations(n));
                }
                List<Stmt> body = block(n.blocks.get(0), p);
                body.addAll(carries.endOfIteration(n, p));
                out.add(new Stmt.For(f.var(), f.from(), f.to(), f.maxIterations(), body));
            }
        }
        return out;
    }
}
