package org.tebaldi.core.proc.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.Stmt;

/**
 * A procedure body normalized for the analyses (package-private):
 * <ul>
 *   <li>statements that follow, in the same block, a statement that always aborts are dropped (unreachable);</li>
 *   <li>an {@code if} condition that reads locals is evaluated first into a temp ({@code let c$7 = cond}) so that
 *       an {@code if} split over several steps tests one value; {@code for} bounds that read locals likewise
 *       ({@code f$9}, {@code t$9}); conditions and bounds over parameters and literals stay in place;</li>
 *   <li>each local is split into its webs (the assignments that reach a common read, with those reads) and every
 *       web but the first is renamed ({@code x$2}), so reusing a name for unrelated values creates no ordering
 *       constraint. Loop variables keep their names.</li>
 * </ul>
 * Renaming and temps preserve the procedure's behaviour on every input.
 */
final class ProcTree {
    final Procedure proc;
    final List<Node> root = new ArrayList<>();
    final List<Node> nodes = new ArrayList<>();
    final Names names;
    /** Names of the synthetic condition and bound temps. */
    final Set<String> temps = new HashSet<>();
    /** Generated local name to the name in the original procedure (for messages). */
    final Map<String, String> originalNames = new HashMap<>();
    private int counter;

    private ProcTree(Procedure proc) {
        this.proc = proc;
        Set<String> taken = new HashSet<>(proc.params());
        for (Stmt s : Stmt.flatten(proc.body())) {
            s.defines().ifPresent(taken::add);
        }
        this.names = new Names(taken);
    }

    /** The normalized, renamed tree of {@code p}'s body. */
    static ProcTree of(Procedure p) {
        ProcTree t = new ProcTree(p);
        t.build(p.body(), t.root, null);
        t.number(t.root);
        Webs.rename(t);
        return t;
    }

    /** The name a (possibly generated) local had in the original procedure. */
    String original(String local) {
        return originalNames.getOrDefault(local, local);
    }

    private void build(List<Stmt> stmts, List<Node> into, Node parent) {
        boolean dead = false;
        for (Stmt s : stmts) {
            if (dead) {
                counter += Stmt.flatten(List.of(s)).size();
                continue;
            }
            int no = ++counter;
            if (s instanceof Stmt.If i) {
                Node let = null;
                Expr cond = i.cond();
                if (!cond.localsRead().isEmpty()) {
                    String c = temp("c$" + no);
                    let = new Node(Node.Kind.ATOMIC, new Stmt.Let(c, cond), no, true, s.describe(), parent);
                    into.add(let);
                    cond = new Expr.Local(c);
                }
                Node n = new Node(Node.Kind.IF, new Stmt.If(cond, List.of(), List.of()), no, false, s.describe(),
                        parent);
                n.condLet = let;
                into.add(n);
                build(i.then(), n.blocks.get(0), n);
                build(i.otherwise(), n.blocks.get(1), n);
            } else if (s instanceof Stmt.For f) {
                Expr from = bound(f.from(), "f$" + no, s, into, parent);
                Expr to = bound(f.to(), "t$" + no, s, into, parent);
                Node n = new Node(Node.Kind.FOR, new Stmt.For(f.var(), from, to, f.maxIterations(), List.of()), no,
                        false, s.describe(), parent);
                into.add(n);
                build(f.body(), n.blocks.get(0), n);
            } else {
                into.add(new Node(Node.Kind.ATOMIC, s, no, false, s.describe(), parent));
            }
            dead = alwaysAborts(s);
        }
    }

    private Expr bound(Expr e, String base, Stmt loop, List<Node> into, Node parent) {
        if (e.localsRead().isEmpty()) {
            return e;
        }
        String name = temp(base);
        into.add(new Node(Node.Kind.ATOMIC, new Stmt.Let(name, e), counter, true, loop.describe(), parent));
        return new Expr.Local(name);
    }

    private String temp(String base) {
        String n = names.fresh(base);
        temps.add(n);
        return n;
    }

    private int number(List<Node> block) {
        int last = -1;
        for (Node n : block) {
            n.id = nodes.size();
            nodes.add(n);
            last = n.id;
            for (List<Node> b : n.blocks) {
                int l = number(b);
                last = Math.max(last, l);
            }
            n.last = last;
        }
        return last;
    }

    /** True if every execution of {@code s} ends in a user abort (as the compiler's definite assignment sees it). */
    static boolean alwaysAborts(Stmt s) {
        if (s instanceof Stmt.Abort) {
            return true;
        }
        if (s instanceof Stmt.If i) {
            return blockAborts(i.then()) && blockAborts(i.otherwise());
        }
        return false;
    }

    private static boolean blockAborts(List<Stmt> block) {
        for (Stmt s : block) {
            if (alwaysAborts(s)) {
                return true;
            }
        }
        return false;
    }
}
