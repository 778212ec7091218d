package org.tebaldi.core.proc;

import java.util.function.DoubleBinaryOperator;
import org.tebaldi.core.proc.Kinds.Kind;

/**
 * Compiles expressions of static kind LONG and DOUBLE ({@link Kinds}) to unboxed evaluators ({@link Ev.OfLong},
 * {@link Ev.OfDouble}; those of kind BOOL: {@link BoolExprs}): operands of such kinds are evaluated unboxed, operands
 * of kind ANY boxed by the {@link ExprCompiler} and combined by {@link PrimOps}. Each evaluator returns the value the
 * boxed evaluation ({@link Values}) returns and throws the same errors, evaluating operands in the same order (left
 * to right, both before the operator), so the choice between the two is invisible. Sub-expressions are compiled
 * left to right, so build-time errors come in the same order as well. Package-private.
 */
final class TypedExprs {
    private final Scope scope;
    private final ExprCompiler exprs;

    TypedExprs(Scope scope, ExprCompiler exprs) {
        this.scope = scope;
        this.exprs = exprs;
    }

    private Kind kind(Expr e) {
        return exprs.kind(e);
    }

    /**
     * An expression of kind LONG.
     *
     * @throws IllegalStateException if {@code e} is of another kind
     */
    Ev.OfLong asLong(Expr e) {
        if (e instanceof Expr.Lit l && l.value() instanceof Long v) {
            long x = v;
            return f -> x;
        }
        if (e instanceof Expr.Local l && scope.kind(l.name()) == Kind.LONG) {
            int slot = scope.readable(l.name());
            int p = scope.prim(l.name());
            return f -> {
                if (f.locals[slot] != null) {
                    throw Pending.FLUSH;
                }
                return f.prims[p];
            };
        }
        if (e instanceof Expr.Unary u) {
            Expr o = u.operand();
            switch (u.op()) {
                case NEG: {
                    Ev.OfLong x = asLong(o);
                    return f -> PrimOps.neg(x.eval(f));
                }
                case LEN: {
                    Ev x = exprs.tc(o);
                    return f -> PrimOps.len(x.eval(f));
                }
                case TO_LONG: {
                    Kind k = kind(o);
                    if (k == Kind.LONG) {
                        return asLong(o);
                    }
                    if (k == Kind.DOUBLE) {
                        Ev.OfDouble x = asDouble(o);
                        return f -> PrimOps.toLong(x.eval(f));
                    }
                    Ev x = exprs.tc(o);
                    return f -> PrimOps.toLong(x.eval(f));
                }
                default:
                    break;
            }
        }
        if (e instanceof Expr.Binary b && kind(e) == Kind.LONG) {
            Ev.OfLong x = asLong(b.left());
            Ev.OfLong y = asLong(b.right());
            switch (b.op()) {
                case ADD:
                    return f -> PrimOps.add(x.eval(f), y.eval(f));
                case SUB:
                    return f -> PrimOps.sub(x.eval(f), y.eval(f));
                case MUL:
                    return f -> PrimOps.mul(x.eval(f), y.eval(f));
                case DIV:
                    return f -> PrimOps.div(x.eval(f), y.eval(f));
                case MOD:
                    return f -> PrimOps.mod(x.eval(f), y.eval(f));
                default:
                    break;
            }
        }
        if (e instanceof Expr.Cond c && kind(e) == Kind.LONG) {
            Ev.OfBool t = exprs.condition(c.test(), "cond test");
            Ev.OfLong a = asLong(c.then());
            Ev.OfLong o = asLong(c.otherwise());
            return f -> t.eval(f) ? a.eval(f) : o.eval(f);
        }
        if (e instanceof Expr.Elem el && kind(e) == Kind.LONG) {
            Ev a = exprs.tc(el.array());
            if (kind(el.index()) == Kind.LONG) {
                Ev.OfLong i = asLong(el.index());
                return f -> PrimOps.elemLong(a.eval(f), i.eval(f));
            }
            Ev i = exprs.tc(el.index());
            return f -> PrimOps.elemLong(a.eval(f), i.eval(f));
        }
        throw new IllegalStateException("not an expression of kind long: " + e);
    }

    /**
     * An expression of kind DOUBLE, or of kind LONG widened to a double (an operand of double arithmetic or of a
     * mixed comparison, where the boxed evaluation widens it too).
     *
     * @throws IllegalStateException if {@code e} is of another kind
     */
    Ev.OfDouble asDouble(Expr e) {
        Kind k = kind(e);
        if (k == Kind.LONG) {
            Ev.OfLong x = asLong(e);
            return f -> (double) x.eval(f);
        }
        if (k != Kind.DOUBLE) {
            throw new IllegalStateException("not an expression of kind double: " + e);
        }
        if (e instanceof Expr.Lit l) {
            double x = (Double) l.value();
            return f -> x;
        }
        if (e instanceof Expr.Local l) {
            int slot = scope.readable(l.name());
            int p = scope.prim(l.name());
            return f -> {
                if (f.locals[slot] != null) {
                    throw Pending.FLUSH;
                }
                return Double.longBitsToDouble(f.prims[p]);
            };
        }
        if (e instanceof Expr.Unary u) {
            Expr o = u.operand();
            if (u.op() == Expr.UnaryOp.NEG) {
                Ev.OfDouble x = asDouble(o);
                return f -> -x.eval(f);
            }
            // TO_DOUBLE
            Kind ko = kind(o);
            if (ko.numeric()) {
                return asDouble(o);
            }
            Ev x = exprs.tc(o);
            return f -> PrimOps.toDouble(x.eval(f));
        }
        if (e instanceof Expr.Binary b) {
            return arithmetic(b);
        }
        if (e instanceof Expr.Cond c) {
            Ev.OfBool t = exprs.condition(c.test(), "cond test");
            Ev.OfDouble a = asDouble(c.then());
            Ev.OfDouble o = asDouble(c.otherwise());
            return f -> t.eval(f) ? a.eval(f) : o.eval(f);
        }
        throw new IllegalStateException("not an expression of kind double: " + e);
    }

    /** Double arithmetic: one operand is of kind DOUBLE; the other numeric (widened) or any (converted after both). */
    private Ev.OfDouble arithmetic(Expr.Binary b) {
        String op = b.op().dslName();
        DoubleBinaryOperator fn = PrimOps.doubleOp(b.op());
        Kind x = kind(b.left());
        Kind y = kind(b.right());
        if (x.numeric() && y.numeric()) {
            Ev.OfDouble l = asDouble(b.left());
            Ev.OfDouble r = asDouble(b.right());
            return f -> fn.applyAsDouble(l.eval(f), r.eval(f));
        }
        if (x.numeric()) {
            Ev.OfDouble l = asDouble(b.left());
            Ev r = exprs.tc(b.right());
            return f -> {
                double lv = l.eval(f);
                Object rv = r.eval(f);
                return fn.applyAsDouble(lv, PrimOps.num(op, rv, x, false));
            };
        }
        Ev l = exprs.tc(b.left());
        Ev.OfDouble r = asDouble(b.right());
        return f -> {
            Object lv = l.eval(f);
            double rv = r.eval(f);
            return fn.applyAsDouble(PrimOps.num(op, lv, y, true), rv);
        };
    }
}
