package org.tebaldi.core.proc.analysis;

import org.tebaldi.core.testkit.TestStore;
import static org.tebaldi.core.proc.Exprs.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.Stmt;

/**
 * Random, run-time-error-free procedures over {@link Schema#abcd()} for equivalence tests: lets, reads into row
 * locals (one table per row local), writes, updates, deletes, if/else, loops (nested, over an input array or a
 * literal range), arrays, abortIf and outputs. Every field access is guarded by isNull, every index is in range,
 * every value is a small long, and locals are read only where definitely assigned. With guards, a row local
 * checked by {@code abortIf(isNull(..))} may be read unguarded until reassigned.
 */
final class RandomPrograms {
    private static final String[] TABLES = {"a", "b", "c", "d", "r"};
    private static final String[] ROWS = {"ra", "rb", "rc", "rd", "rr", "ra2"};
    private static final String[] VALUES = {"x", "y", "z", "u"};

    private final Random rnd;
    private final Catalog cat;
    private final boolean guards;
    private int aborts;
    private int outputs;

    /**
     * @param guards also generate {@code abortIf(isNull(local(r)))} guards followed by unguarded
     *               {@code field(r, ..)} reads (which fail at run time if moved above the guard)
     */
    RandomPrograms(Random rnd, Catalog cat, boolean guards) {
        this.rnd = rnd;
        this.cat = cat;
        this.guards = guards;
    }

    private static List<String> rows(Scope s) {
        List<String> rows = new ArrayList<>();
        for (String d : s.defined) {
            if (List.of(ROWS).contains(d)) {
                rows.add(d);
            }
        }
        rows.sort(null);
        return rows;
    }

    /** Table a row local holds. */
    static String tableOf(String row) {
        return row.equals("ra2") ? "a" : row.substring(1);
    }

    /** A procedure with parameters p0, p1 (longs) and arr (long[] of length 0..4, elements 0..4). */
    Procedure next(String name) {
        aborts = 0;
        outputs = 0;
        Scope s = new Scope();
        List<Stmt> body = new ArrayList<>();
        body.add(new Stmt.NewArray("ys", lit(5L)));
        s.defined.add("ys");
        block(body, s, 0, 3 + rnd.nextInt(8));
        return Procedure.of(name, cat, List.of("p0", "p1", "arr"), body);
    }

    /** Random inputs for {@link #next}'s procedures. */
    Object[] inputs() {
        long[] arr = new long[rnd.nextInt(5)];
        for (int i = 0; i < arr.length; i++) {
            arr[i] = rnd.nextInt(5);
        }
        return new Object[] {(long) rnd.nextInt(5), (long) rnd.nextInt(5), arr};
    }

    /** A random store: each table gets some of the keys 0..4. */
    TestStore store() {
        TestStore st = new TestStore(cat);
        for (String t : TABLES) {
            for (long k = 0; k < 5; k++) {
                if (rnd.nextInt(3) > 0) {
                    st.put(t, new long[] {k}, (long) rnd.nextInt(5), (long) rnd.nextInt(5));
                }
            }
        }
        return st;
    }

    /** Locals definitely assigned, loop variables in scope (with their bound: an index valid for ys). */
    private static final class Scope {
        Set<String> defined = new HashSet<>();
        /** Row locals known non-null here (checked by an abortIf since their last assignment). */
        Set<String> nonNull = new HashSet<>();
        List<String> loopVars = new ArrayList<>();

        Scope copy() {
            Scope c = new Scope();
            c.defined = new HashSet<>(defined);
            c.nonNull = new HashSet<>(nonNull);
            c.loopVars = new ArrayList<>(loopVars);
            return c;
        }
    }

    private void block(List<Stmt> out, Scope s, int depth, int n) {
        for (int i = 0; i < n; i++) {
            out.add(stmt(s, depth));
        }
    }

    private Stmt stmt(Scope s, int depth) {
        int k = rnd.nextInt(depth >= 2 ? 9 : 11);
        switch (k) {
            case 0, 1: {
                String x = VALUES[rnd.nextInt(VALUES.length)];
                Stmt st = new Stmt.Let(x, value(s, 2));
                s.defined.add(x);
                return st;
            }
            case 2, 3: {
                String r = ROWS[rnd.nextInt(ROWS.length)];
                Stmt st = new Stmt.Read(tableOf(r), r, List.of(key(s)), rnd.nextBoolean());
                s.defined.add(r);
                s.nonNull.remove(r);
                return st;
            }
            case 4: {
                String t = TABLES[rnd.nextInt(4)];
                return new Stmt.Write(t, row("v", value(s, 2), "w", value(s, 1)), List.of(key(s)));
            }
            case 5: {
                String t = TABLES[rnd.nextInt(4)];
                String into = null;
                if (rnd.nextBoolean()) {
                    into = t.equals("a") && rnd.nextBoolean() ? "ra2" : "r" + t;
                }
                Stmt st = new Stmt.Update(t, into, List.of(set("v", add(col("v"), value(s, 1)))), List.of(key(s)));
                if (into != null) {
                    s.defined.add(into);
                    s.nonNull.remove(into);
                }
                return st;
            }
            case 6:
                return rnd.nextInt(3) == 0 ? new Stmt.Delete(TABLES[rnd.nextInt(4)], List.of(key(s)))
                        : new Stmt.Output("o" + rnd.nextInt(3), value(s, 2));
            case 7: {
                List<String> rows = rows(s);
                if (guards && !rows.isEmpty() && rnd.nextBoolean()) {
                    String r = rows.get(rnd.nextInt(rows.size()));
                    String r2 = rows.get(rnd.nextInt(rows.size()));
                    s.nonNull.add(r);
                    s.nonNull.add(r2);
                    Expr test = r.equals(r2) ? isNull(local(r)) : or(isNull(local(r)), isNull(local(r2)));
                    return new Stmt.If(test, List.of(new Stmt.Abort("no " + r + " " + aborts++)), List.of());
                }
                return new Stmt.If(condition(s), List.of(new Stmt.Abort("abort " + aborts++)), List.of());
            }
            case 8:
                if (!s.loopVars.isEmpty()) {
                    return new Stmt.SetElem("ys", local(s.loopVars.get(rnd.nextInt(s.loopVars.size()))), value(s, 1));
                }
                return new Stmt.Output("o" + outputs++, value(s, 1));
            case 9: {
                Expr c = condition(s);
                Scope t = s.copy();
                Scope e = s.copy();
                List<Stmt> then = new ArrayList<>();
                List<Stmt> otherwise = new ArrayList<>();
                block(then, t, depth + 1, 1 + rnd.nextInt(4));
                block(otherwise, e, depth + 1, rnd.nextInt(3));
                t.defined.retainAll(e.defined);
                s.defined.addAll(t.defined);
                t.nonNull.retainAll(e.nonNull);
                s.nonNull = t.nonNull;
                return new Stmt.If(c, then, otherwise);
            }
            default: {
                String v = "i" + depth;
                Expr to = rnd.nextBoolean() ? len(in("arr")) : lit((long) rnd.nextInt(5));
                Scope inner = s.copy();
                inner.defined.add(v);
                inner.loopVars.add(v);
                inner.nonNull.clear();
                List<Stmt> body = new ArrayList<>();
                block(body, inner, depth + 1, 1 + rnd.nextInt(5));
                s.nonNull.retainAll(inner.nonNull);
                return new Stmt.For(v, lit(0L), to, 4, body);
            }
        }
    }

    private Expr key(Scope s) {
        return rnd.nextInt(3) == 0 ? lit((long) rnd.nextInt(5)) : mod(value(s, 1), lit(5L));
    }

    private Expr value(Scope s, int depth) {
        int k = rnd.nextInt(depth == 0 ? 5 : 7);
        List<String> vals = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (String d : s.defined) {
            if (List.of(VALUES).contains(d)) {
                vals.add(d);
            } else if (List.of(ROWS).contains(d)) {
                rows.add(d);
            }
        }
        vals.sort(null);
        rows.sort(null);
        switch (k) {
            case 0:
                return lit((long) rnd.nextInt(5));
            case 1:
                return in(rnd.nextBoolean() ? "p0" : "p1");
            case 2:
                if (!vals.isEmpty()) {
                    return local(vals.get(rnd.nextInt(vals.size())));
                }
                return lit(1L);
            case 3:
                if (!rows.isEmpty()) {
                    String r = rows.get(rnd.nextInt(rows.size()));
                    String c = rnd.nextBoolean() ? "v" : "w";
                    return s.nonNull.contains(r) && rnd.nextBoolean() ? field(r, c)
                            : cond(isNull(local(r)), lit(7L), field(r, c));
                }
                return in("p1");
            case 4:
                if (!s.loopVars.isEmpty()) {
                    String v = s.loopVars.get(rnd.nextInt(s.loopVars.size()));
                    Expr e = rnd.nextBoolean() ? local(v) : cond(isNull(elem(local("ys"), local(v))), lit(3L),
                            elem(local("ys"), local(v)));
                    return e;
                }
                return lit(2L);
            case 5:
                return mod(add(value(s, depth - 1), value(s, depth - 1)), lit(97L));
            default:
                return sub(value(s, depth - 1), value(s, depth - 1));
        }
    }

    private Expr condition(Scope s) {
        switch (rnd.nextInt(4)) {
            case 0:
                return lt(value(s, 1), value(s, 1));
            case 1:
                return eq(mod(value(s, 1), lit(2L)), lit(0L));
            case 2: {
                List<String> rows = new ArrayList<>();
                for (String d : s.defined) {
                    if (List.of(ROWS).contains(d)) {
                        rows.add(d);
                    }
                }
                rows.sort(null);
                if (!rows.isEmpty()) {
                    return isNull(local(rows.get(rnd.nextInt(rows.size()))));
                }
                return gt(in("p0"), lit(2L));
            }
            default:
                return or(lt(value(s, 0), lit(2L)), not(eq(value(s, 1), in("p1"))));
        }
    }

    /** Statement count, nested included. */
    static int size(Procedure p) {
        return Stmt.flatten(p.body()).size();
    }
}
