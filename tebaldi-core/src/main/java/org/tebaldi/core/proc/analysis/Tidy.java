package org.tebaldi.core.proc.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.Exprs;
import org.tebaldi.core.proc.Stmt;

/**
 * Final touches on a reordered body (package-private):
 * <ol>
 *   <li>a condition or bound temp read exactly once, by the {@code if}/{@code for} right after its {@code let},
 *       is put back into that header (the statement was not split);</li>
 *   <li>definite assignment: splitting an {@code if} or a loop can leave a local assigned in one copy and read
 *       in another, which the compiler (like Java) cannot prove assigned; such locals get {@code let x = litNull()}
 *       at the start. The original passed definite assignment, so no read ever observes that null.</li>
 * </ol>
 */
final class Tidy {
    private final Set<String> temps;
    private final Map<String, Integer> reads = new HashMap<>();

    private Tidy(Set<String> temps) {
        this.temps = temps;
    }

    /** The tidied body. */
    static List<Stmt> apply(List<Stmt> body, Set<String> temps) {
        Tidy t = new Tidy(temps);
        t.count(body);
        List<Stmt> inlined = t.inline(body);
        Set<String> unassigned = new TreeSet<>();
        new Assigned(unassigned).block(inlined, new HashSet<>());
        List<Stmt> out = new ArrayList<>();
        for (String x : unassigned) {
            out.add(new Stmt.Let(x, Exprs.litNull()));
        }
        out.addAll(inlined);
        return out;
    }

    private void count(List<Stmt> body) {
        for (Stmt s : body) {
            for (String v : s.localsRead()) {
                reads.merge(v, countUses(s, v), Integer::sum);
            }
            for (List<Stmt> b : s.blocks()) {
                count(b);
            }
        }
    }

    private static int countUses(Stmt s, String v) {
        int n = s instanceof Stmt.SetElem se && se.array().equals(v) ? 1 : 0;
        for (Expr e : s.exprs()) {
            n += countUses(e, v);
        }
        return n;
    }

    private static int countUses(Expr e, String v) {
        int n = e instanceof Expr.Local l && l.name().equals(v) || e instanceof Expr.Field f && f.row().equals(v)
                ? 1 : 0;
        for (Expr c : e.children()) {
            n += countUses(c, v);
        }
        return n;
    }

    private boolean once(Stmt s, Expr use) {
        return s instanceof Stmt.Let l && temps.contains(l.local()) && use instanceof Expr.Local u
                && u.name().equals(l.local()) && reads.getOrDefault(l.local(), 0) == 1;
    }

    private List<Stmt> inline(List<Stmt> body) {
        List<Stmt> out = new ArrayList<>();
        for (Stmt s : body) {
            if (s instanceof Stmt.If i) {
                Expr c = i.cond();
                if (!out.isEmpty() && once(out.get(out.size() - 1), c)) {
                    c = ((Stmt.Let) out.remove(out.size() - 1)).value();
                }
                out.add(new Stmt.If(c, inline(i.then()), inline(i.otherwise())));
            } else if (s instanceof Stmt.For f) {
                Expr from = f.from();
                Expr to = f.to();
                if (!out.isEmpty() && once(out.get(out.size() - 1), to)) {
                    to = ((Stmt.Let) out.remove(out.size() - 1)).value();
                }
                if (!out.isEmpty() && once(out.get(out.size() - 1), from)) {
                    from = ((Stmt.Let) out.remove(out.size() - 1)).value();
                }
                out.add(new Stmt.For(f.var(), from, to, f.maxIterations(), inline(f.body())));
            } else {
                out.add(s);
            }
        }
        return out;
    }

    /** The compiler's definite-assignment rules, collecting locals read where they may be unassigned. */
    private static final class Assigned {
        private final Set<String> unassigned;
        private boolean dead;

        Assigned(Set<String> unassigned) {
            this.unassigned = unassigned;
        }

        void block(List<Stmt> body, Set<String> defined) {
            for (Stmt s : body) {
                stmt(s, defined);
            }
        }

        private void stmt(Stmt s, Set<String> defined) {
            if (!dead) {
                for (String v : s.localsRead()) {
                    if (!defined.contains(v)) {
                        unassigned.add(v);
                    }
                }
            }
            if (s instanceof Stmt.If i) {
                boolean before = dead;
                Set<String> t = new HashSet<>(defined);
                block(i.then(), t);
                boolean deadT = dead;
                dead = before;
                Set<String> e = new HashSet<>(defined);
                block(i.otherwise(), e);
                boolean deadE = dead;
                if (deadT) {
                    defined.addAll(e);
                } else if (deadE) {
                    defined.addAll(t);
                } else {
                    t.retainAll(e);
                    defined.addAll(t);
                }
                dead = deadT && deadE;
            } else if (s instanceof Stmt.For f) {
                boolean before = dead;
                Set<String> inner = new HashSet<>(defined);
                inner.add(f.var());
                block(f.body(), inner);
                dead = before;
            } else if (s instanceof Stmt.Abort) {
                dead = true;
            } else if (!(s instanceof Stmt.SetElem)) {
                s.defines().ifPresent(defined::add);
            }
        }
    }
}
