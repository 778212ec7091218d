package org.tebaldi.core.proc.analysis;

import static org.tebaldi.core.proc.Exprs.add;
import static org.tebaldi.core.proc.Exprs.cond;
import static org.tebaldi.core.proc.Exprs.elem;
import static org.tebaldi.core.proc.Exprs.field;
import static org.tebaldi.core.proc.Exprs.gt;
import static org.tebaldi.core.proc.Exprs.isNull;
import static org.tebaldi.core.proc.Exprs.le;
import static org.tebaldi.core.proc.Exprs.lit;
import static org.tebaldi.core.proc.Exprs.litNull;
import static org.tebaldi.core.proc.Exprs.local;
import static org.tebaldi.core.proc.Exprs.lt;
import static org.tebaldi.core.proc.Exprs.sub;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.ProcedureException;
import org.tebaldi.core.proc.Stmt;

/**
 * Scalar expansion for loop fission (package-private). When a split loop's part for step {@code b} reads a local
 * that the loop assigns in its part for an earlier step {@code a} (its home, see {@link Placement}'s home rule),
 * part {@code a} stores the local's value at the end of every iteration into an array and part {@code b} reads
 * the element of the same iteration instead of the local:
 * <ul>
 *   <li>{@code local(x)} becomes {@code elem(x$9, k)};</li>
 *   <li>{@code field(x, c)} of a row local becomes {@code elem(x$9$c, k)}, the column stored separately, guarded so
 *       that a null row still fails at run time as the original {@code field} would;</li>
 *   <li>{@code k} is {@code i - from} for a loop outside every other loop (arrays sized by its trip count), and a
 *       per-part iteration counter for a loop nested in another split loop (arrays sized by the product of the
 *       loops' maxIterations: every part visits the loop's iterations in the same order).</li>
 * </ul>
 * The value at the end of a part-a iteration is the one the read sees in the original: the home rule puts every
 * assignment of the local inside the loop in part a, and the anti dependencies keep all of them textually before
 * any read placed in a later part. An array element has the static shape "a value", so a later part may read a
 * carried row's fields or a carried array's elements but not copy the row or array whole into another local
 * ({@link ProcedureException}, see {@link Shapes}).
 */
final class Carries {
    /** One local carried from its home part to later parts of one loop. */
    static final class Carry {
        final Node loop;
        final String var;
        final int home;
        final SortedSet<Integer> readers = new TreeSet<>();
        final SortedSet<String> columns = new TreeSet<>();
        String array;
        final Map<String, String> columnArrays = new LinkedHashMap<>();

        Carry(Node loop, String var, int home) {
            this.loop = loop;
            this.var = var;
            this.home = home;
        }
    }

    private final ProcTree tree;
    private final Placement placement;
    private final Shapes shapes;
    private final Map<Node, SortedSet<Integer>> copyParts;
    private final Map<Node, Map<String, SortedSet<Integer>>> defsIn = new HashMap<>();
    private final Map<String, Carry> carries = new LinkedHashMap<>();
    private final Map<Node, Map<Integer, Map<String, Carry>>> uses = new HashMap<>();
    private final Map<String, String> cursors = new TreeMap<>();

    Carries(ProcTree tree, Placement placement, Map<Node, SortedSet<Integer>> copyParts) {
        this.tree = tree;
        this.placement = placement;
        this.copyParts = copyParts;
        this.shapes = new Shapes(tree);
        for (Node l : tree.nodes) {
            if (l.kind == Node.Kind.FOR) {
                Map<String, SortedSet<Integer>> m = new HashMap<>();
                for (int i = l.id + 1; i <= l.last; i++) {
                    Node d = tree.nodes.get(i);
                    if (d.localDef() != null) {
                        m.computeIfAbsent(d.localDef(), k -> new TreeSet<>()).add(placement.part(d));
                    }
                }
                defsIn.put(l, m);
            }
        }
        find();
    }

    private void find() {
        for (Node n : tree.nodes) {
            Set<Integer> parts = n.kind == Node.Kind.ATOMIC ? Set.of(placement.part(n)) : copyParts.get(n);
            for (String v : n.reads()) {
                Node loop = carryLoop(n, v);
                if (loop == null) {
                    continue;
                }
                SortedSet<Integer> homes = defsIn.get(loop).get(v);
                if (homes.size() != 1) {
                    throw new IllegalStateException(tree.proc.name() + ": local " + v + " assigned in parts " + homes
                            + " of " + loop.where());
                }
                int home = homes.first();
                for (int p : parts) {
                    if (p == home) {
                        continue;
                    }
                    if (p < home) {
                        throw new IllegalStateException(tree.proc.name() + ": " + n.where() + " reads " + v
                                + " in part " + p + " before its assignment in part " + home);
                    }
                    Carry c = carries.computeIfAbsent(loop.id + ":" + v, k -> new Carry(loop, v, home));
                    c.readers.add(p);
                    c.columns.addAll(Rewrite.fieldsOf(n.stmt, v));
                    uses.computeIfAbsent(n, k -> new HashMap<>()).computeIfAbsent(p, k -> new HashMap<>()).put(v, c);
                }
            }
        }
        for (Carry c : carries.values()) {
            String base = tree.original(c.var) + "$" + c.loop.origin;
            c.array = tree.names.fresh(base);
            for (String col : c.columns) {
                c.columnArrays.put(col, tree.names.fresh(base + "$" + col));
            }
            if (nested(c.loop)) {
                cursor(c.loop, c.home);
                c.readers.forEach(p -> cursor(c.loop, p));
            }
        }
    }

    /** Locals a {@code let} of {@code e} copies whole: {@code e} itself or the branches of a {@code cond}. */
    private static Set<String> copied(Expr e) {
        if (e instanceof Expr.Local l) {
            return Set.of(l.name());
        }
        if (e instanceof Expr.Cond c) {
            Set<String> out = new TreeSet<>(copied(c.then()));
            out.addAll(copied(c.otherwise()));
            return out;
        }
        return Set.of();
    }

    /** The innermost loop enclosing {@code n} that assigns {@code v}, or null. */
    private Node carryLoop(Node n, String v) {
        for (Node l : n.loops()) {
            if (defsIn.get(l).containsKey(v)) {
                return l;
            }
        }
        return null;
    }

    private static boolean nested(Node loop) {
        return !loop.loops().isEmpty();
    }

    private String cursor(Node loop, int part) {
        return cursors.computeIfAbsent(loop.id + ":" + part,
                k -> tree.names.fresh("k$" + loop.origin + "$" + (part == Placement.FREE ? "free" : part)));
    }

    /** {@code stmt} of node {@code n} as its copy in {@code part} runs it: carried reads replaced. */
    Stmt rewrite(Node n, int part, Stmt stmt) {
        Map<String, Carry> cs = uses.getOrDefault(n, Map.of()).getOrDefault(part, Map.of());
        if (cs.isEmpty()) {
            return stmt;
        }
        if (stmt instanceof Stmt.Let l) {
            for (String v : copied(l.value())) {
                Carry c = cs.get(v);
                if (c != null && shapes.structured(v)) {
                    throw new ProcedureException(tree.proc.name() + ": cannot split " + c.loop.where()
                            + " by step: " + n.where() + " copies the row or array local '" + tree.original(v)
                            + "' of step " + c.home + " in step " + part + "; read its fields or elements there"
                            + " instead");
                }
            }
        }
        return Rewrite.mapExprs(stmt, e -> Rewrite.substitute(e, leaf -> {
            if (leaf instanceof Expr.Local l && cs.containsKey(l.name())) {
                Carry c = cs.get(l.name());
                return elem(local(c.array), index(c.loop, part));
            }
            if (leaf instanceof Expr.Field f && cs.containsKey(f.row())) {
                Carry c = cs.get(f.row());
                Expr row = elem(local(c.array), index(c.loop, part));
                return cond(isNull(row), elem(row, lit(0L)),
                        elem(local(c.columnArrays.get(f.column())), index(c.loop, part)));
            }
            return leaf;
        }));
    }

    /** Statements allocating, before the first copy of top-level loop {@code loop}, its carry arrays. */
    List<Stmt> allocations(Node loop) {
        List<Stmt> out = new ArrayList<>();
        if (nested(loop) || carries.values().stream().noneMatch(c -> c.loop == loop)) {
            return out;
        }
        Stmt.For h = (Stmt.For) loop.stmt;
        String size = tree.names.fresh("n$" + loop.origin);
        out.add(new Stmt.Let(size, tripCount(h.from(), h.to(), h.maxIterations())));
        for (Carry c : carries.values()) {
            if (c.loop == loop) {
                out.add(new Stmt.NewArray(c.array, local(size)));
                c.columnArrays.values().forEach(a -> out.add(new Stmt.NewArray(a, local(size))));
            }
        }
        return out;
    }

    /** Statements run once at the start: arrays and counters of loops nested in split loops. */
    List<Stmt> preamble() {
        List<Stmt> out = new ArrayList<>();
        for (Carry c : carries.values()) {
            if (nested(c.loop)) {
                Expr size = lit(bound(c.loop));
                out.add(new Stmt.NewArray(c.array, size));
                c.columnArrays.values().forEach(a -> out.add(new Stmt.NewArray(a, size)));
            }
        }
        cursors.values().forEach(k -> out.add(new Stmt.Let(k, lit(0L))));
        return out;
    }

    /** Statements ending each iteration of the copy of {@code loop} in {@code part}: stores, counter step. */
    List<Stmt> endOfIteration(Node loop, int part) {
        List<Stmt> out = new ArrayList<>();
        for (Carry c : carries.values()) {
            if (c.loop == loop && c.home == part) {
                Expr k = index(loop, part);
                out.add(new Stmt.SetElem(c.array, k, local(c.var)));
                c.columnArrays.forEach((col, a) -> out.add(new Stmt.SetElem(a, k,
                        cond(isNull(local(c.var)), litNull(), field(c.var, col)))));
            }
        }
        String k = cursors.get(loop.id + ":" + part);
        if (k != null) {
            out.add(new Stmt.Let(k, add(local(k), lit(1L))));
        }
        return out;
    }

    private Expr index(Node loop, int part) {
        if (nested(loop)) {
            return local(cursors.get(loop.id + ":" + part));
        }
        Stmt.For h = (Stmt.For) loop.stmt;
        return isZero(h.from()) ? local(h.var()) : sub(local(h.var()), h.from());
    }

    private static boolean isZero(Expr e) {
        return e instanceof Expr.Lit l && Long.valueOf(0L).equals(l.value());
    }

    /** Most iterations of {@code loop}'s body over one run: product of its and its enclosing loops' maxima. */
    private long bound(Node loop) {
        long b = 1;
        for (Node l = loop; l != null; l = l.loops().isEmpty() ? null : l.loops().get(0)) {
            b *= ((Stmt.For) l.stmt).maxIterations();
            if (b > (1 << 20)) {
                throw new ProcedureException(tree.proc.name() + ": cannot split " + loop.where()
                        + " by step: carrying its locals to later steps needs arrays of more than 1048576 "
                        + "elements (product of the maxIterations of the nested loops)");
            }
        }
        return b;
    }

    /** max(0, min(to - from, max)) without overflow (the loop itself rejects larger ranges). */
    private static Expr tripCount(Expr from, Expr to, int max) {
        if (from instanceof Expr.Lit l && l.value() instanceof Long f && f < Long.MAX_VALUE - max) {
            Expr diff = f == 0 ? to : sub(to, from);
            return cond(le(to, from), lit(0L), cond(gt(to, lit(f + max)), lit((long) max), diff));
        }
        Expr diff = sub(to, from);
        return cond(le(to, from), lit(0L),
                cond(lt(from, lit(Long.MAX_VALUE - max)), cond(gt(to, add(from, lit((long) max))), lit((long) max),
                        diff), diff));
    }
}
