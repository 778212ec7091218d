package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.proc.Kinds.Kind;
import org.tebaldi.core.proc.Scope.Shape;

/**
 * Checks expressions against a {@link Scope} and compiles them to {@link Ev} closures (names resolved to slots,
 * parameter indexes and column indexes). An expression of static kind LONG, DOUBLE or BOOL ({@link Kinds}) is
 * compiled by {@link TypedExprs} or {@link BoolExprs} to an unboxed evaluator, boxed only where its value is stored as an object (a
 * row, an output, an update's argument, a local of another kind); the other contexts that need a primitive (key
 * parts, indexes, loop bounds, conditions) take it unboxed. Also splits update assignments for partial evaluation:
 * each maximal sub-expression without {@code col} becomes a "hole" evaluated at the TC; the rest (the template)
 * runs at the data server with holes read from {@code Frame.locals}. Operator nodes of kind ANY and literals are
 * compiled by {@link BoxedExprs}. Package-private.
 */
final class ExprCompiler {
    private final Scope scope;
    private final TypedExprs typed;
    private final BoolExprs bools;

    ExprCompiler(Scope scope) {
        this.scope = scope;
        this.typed = new TypedExprs(scope, this);
        this.bools = new BoolExprs(scope, this, typed);
    }

    /** The static kind of {@code e} in this scope. */
    Kind kind(Expr e) {
        return Kinds.of(e, scope::kind);
    }

    /** Compiles an expression evaluated at the TC; its value boxed. */
    Ev tc(Expr e) {
        if (e instanceof Expr.In in) {
            int i = scope.param(in.param());
            return f -> f.inputs[i];
        }
        if (e instanceof Expr.Local l) {
            return local(l);
        }
        if (e instanceof Expr.Field fd) {
            return field(fd);
        }
        if (e instanceof Expr.Col c) {
            throw scope.error("col(\"" + c.column() + "\") is only allowed in update assignments");
        }
        if (e instanceof Expr.Lit) {
            return BoxedExprs.node(e, this::tc);
        }
        switch (kind(e)) {
            case LONG: {
                Ev.OfLong v = typed.asLong(e);
                return f -> v.eval(f);
            }
            case DOUBLE: {
                Ev.OfDouble v = typed.asDouble(e);
                return f -> v.eval(f);
            }
            case BOOL: {
                Ev.OfBool v = bools.bool(e);
                return f -> v.eval(f);
            }
            default:
                return any(e);
        }
    }

    /** An operator node of kind ANY: operands compiled for the TC (typed where they have a kind). */
    private Ev any(Expr e) {
        if (e instanceof Expr.Cond c) {
            Ev.OfBool t = bools.condition(c.test(), "cond test");
            Ev a = tc(c.then());
            Ev o = tc(c.otherwise());
            return f -> t.eval(f) ? a.eval(f) : o.eval(f);
        }
        if (e instanceof Expr.Elem el) {
            Ev a = tc(el.array());
            if (kind(el.index()) == Kind.LONG) {
                Ev.OfLong i = typed.asLong(el.index());
                return f -> Pending.need(Values.elem(a.eval(f), i.eval(f)));
            }
            Ev i = tc(el.index());
            return f -> Pending.need(Values.elem(a.eval(f), i.eval(f)));
        }
        return BoxedExprs.node(e, this::tc);
    }

    /** A local read at the TC, boxed (FLUSH for a placeholder). */
    private Ev local(Expr.Local l) {
        int slot = scope.readable(l.name());
        Kind k = scope.kind(l.name());
        if (k.numeric()) {
            int p = scope.prim(l.name());
            if (k == Kind.LONG) {
                return f -> {
                    if (f.locals[slot] != null) {
                        throw Pending.FLUSH;
                    }
                    return f.prims[p];
                };
            }
            return f -> {
                if (f.locals[slot] != null) {
                    throw Pending.FLUSH;
                }
                return Double.longBitsToDouble(f.prims[p]);
            };
        }
        return f -> Pending.need(f.locals[slot]);
    }

    /** {@code e} where a long is needed ({@code what}: "loop start", "array size", ...), unboxed when its kind is LONG. */
    Ev.OfLong longExact(Expr e, String what) {
        if (kind(e) == Kind.LONG) {
            return typed.asLong(e);
        }
        Ev g = tc(e);
        return f -> Values.toLongExact(what, g.eval(f));
    }

    /** Key part {@code i} of a key of {@code table}, unboxed when its kind is LONG. */
    Ev.OfLong keyPart(Expr e, int i, TableSchema table) {
        if (kind(e) == Kind.LONG) {
            return typed.asLong(e);
        }
        Ev g = tc(e);
        return f -> Values.keyPart(g.eval(f), i, table);
    }

    /** A condition ({@code what} names it in the error for a non-boolean), unboxed. */
    Ev.OfBool condition(Expr e, String what) {
        return bools.condition(e, what);
    }

    /**
     * The value of a {@code let} into a local of kind LONG or DOUBLE, as the bits its primitive slot holds (a
     * double's raw long bits).
     */
    Ev.OfLong primBits(Expr e) {
        if (kind(e) == Kind.LONG) {
            return typed.asLong(e);
        }
        Ev.OfDouble d = typed.asDouble(e);
        return f -> Double.doubleToRawLongBits(d.eval(f));
    }

    /**
     * Compiles the value of a {@code let} or {@code setElem}, which only stores it: a local or an array element is
     * moved as it is, placeholder included; an expression over exactly one local yields, when that local holds a
     * placeholder, a derived placeholder computed once the row arrives ({@link Pending}); anything else is
     * evaluated as usual (boxed).
     */
    Ev move(Expr e) {
        if (e instanceof Expr.Local l) {
            int slot = scope.readable(l.name());
            Kind k = scope.kind(l.name());
            if (!k.numeric()) {
                return f -> f.locals[slot];
            }
            int p = scope.prim(l.name());
            if (k == Kind.LONG) {
                return f -> {
                    Object m = f.locals[slot];
                    return m != null ? m : (Object) f.prims[p];
                };
            }
            return f -> {
                Object m = f.locals[slot];
                return m != null ? m : (Object) Double.longBitsToDouble(f.prims[p]);
            };
        }
        if (e instanceof Expr.Elem el) {
            Ev a = tc(el.array());
            if (kind(el.index()) == Kind.LONG) {
                Ev.OfLong i = typed.asLong(el.index());
                return f -> Values.elem(a.eval(f), i.eval(f));
            }
            Ev i = tc(el.index());
            return f -> Values.elem(a.eval(f), i.eval(f));
        }
        Ev normal = tc(e);
        Pending.Derivation how = derivation(e, normal);
        if (how == null) {
            return normal;
        }
        int slot = how.slot();
        return f -> {
            if (f.locals[slot] instanceof Pending.Placeholder p) {
                if (p.derived) {
                    throw Pending.FLUSH; // a value derived from a derived one: computed once the row is here
                }
                return ((Run) f).derive(p, how);
            }
            return normal.eval(f);
        };
    }

    /**
     * For a {@code let} into a local of kind LONG or DOUBLE: what {@link #move} would store when it is a
     * placeholder (moved from a local, or derived from a row in flight), null when the value is to be evaluated
     * ({@link #primBits}); or null itself if {@code e} can never yield a placeholder.
     */
    Ev movePending(Expr e) {
        if (e instanceof Expr.Local l) {
            int slot = scope.readable(l.name());
            if (!scope.kind(l.name()).numeric()) {
                throw new IllegalStateException("a numeric let from local '" + l.name() + "' of kind "
                        + scope.kind(l.name()));
            }
            return f -> f.locals[slot];
        }
        if (e instanceof Expr.Elem || e.localsRead().size() != 1) {
            return null;
        }
        Pending.Derivation how = derivation(e, tc(e));
        int slot = how.slot();
        return f -> {
            if (f.locals[slot] instanceof Pending.Placeholder p) {
                if (p.derived) {
                    throw Pending.FLUSH;
                }
                return ((Run) f).derive(p, how);
            }
            return null;
        };
    }

    /** How to derive {@code e} (compiled: {@code value}) from its one local, or null if it reads more or fewer. */
    private Pending.Derivation derivation(Expr e, Ev value) {
        Set<String> read = e.localsRead();
        if (read.size() != 1) {
            return null;
        }
        int slot = scope.readable(read.iterator().next());
        return new Pending.Derivation(value, slot, scope.stmtNo(), scope.stmtLabel());
    }

    private Ev field(Expr.Field fd) {
        int slot = scope.readable(fd.row());
        Shape s = scope.shape(fd.row());
        if (s == null || !s.isRow()) {
            throw scope.error("field(\"" + fd.row() + "\", ...) needs a row local (assigned by a read or update), but '"
                    + fd.row() + "' holds " + (s == null ? "only null" : s.kind()));
        }
        int col = scope.column(s.table(), fd.column());
        String name = fd.row();
        return f -> {
            Object r = f.locals[slot];
            if (r instanceof Row row) {
                return row.get(col);
            }
            Pending.need(r);
            throw new EvalException(r == null ? "row '" + name + "' is null (the row was absent)"
                    : "local '" + name + "' holds a " + Values.kind(r) + ", not a row");
        };
    }

    /**
     * Compiles a data-server expression of an update of {@code table}: {@code col} reads the old row; each
     * maximal {@code col}-free sub-expression other than a literal is compiled for the TC, appended to
     * {@code holes}, and read from {@code Frame.locals[k]} here. {@link ExprUpdate#assignments} relies on this
     * exact rule and on left-to-right order.
     */
    Ev server(Expr e, TableSchema table, List<Ev> holes) {
        if (!e.usesCol()) {
            if (e instanceof Expr.Lit) {
                return BoxedExprs.node(e, null);
            }
            holes.add(tc(e));
            int k = holes.size() - 1;
            return f -> f.locals[k];
        }
        if (e instanceof Expr.Col c) {
            int col = scope.column(table, c.column());
            return f -> f.old.get(col);
        }
        return BoxedExprs.node(e, x -> server(x, table, holes));
    }

    /** Compiles the assignments of an update of {@code table} into a template. */
    UpdateTemplate update(TableSchema table, List<Assign> assignments, String context) {
        int[] targets = new int[assignments.size()];
        Ev[] server = new Ev[assignments.size()];
        List<Ev> holes = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < targets.length; i++) {
            Assign a = assignments.get(i);
            targets[i] = scope.column(table, a.column());
            if (!seen.add(a.column())) {
                throw scope.error("column '" + a.column() + "' assigned twice");
            }
            server[i] = server(a.value(), table, holes);
        }
        return new UpdateTemplate(table, assignments, targets, server, holes.toArray(new Ev[0]), context);
    }

    /** Static shape of a value assigned from {@code e} (null for the null literal). */
    Shape shapeOf(Expr e) {
        if (e instanceof Expr.Lit l) {
            return l.value() == null ? null : l.value() instanceof Object[] ? Shape.ARRAY
                    : l.value() instanceof Row r ? Shape.row(r.table()) : Shape.VALUE;
        }
        if (e instanceof Expr.Local l) {
            Shape s = scope.shape(l.name());
            return s;
        }
        if (e instanceof Expr.Cond c) {
            Shape a = shapeOf(c.then());
            Shape b = shapeOf(c.otherwise());
            if (a == null || b == null || a.equals(b)) {
                return a == null ? b : a;
            }
        }
        return Shape.VALUE;
    }
}
