package org.tebaldi.core.proc;

import java.util.function.DoubleBinaryOperator;
import org.tebaldi.core.proc.Kinds.Kind;

/**
 * Compiles expressions of static kind LONG, DOUBLE and BOOL ({@link Kinds}) to unboxed evaluators
 * ({@link Ev.OfLong}, {@link Ev.OfDouble}, {@link Ev.OfBool}): operands of such kinds are evaluated unboxed, operands
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

    /** A comparison's three-way result (sign only), unboxed. */
    @FunctionalInterface
    private interface Cmp {
        int eval(Frame f);
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
            Ev.OfBool t = condition(c.test(), "cond test");
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
            Ev.OfBool t = condition(c.test(), "cond test");
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

    /** {@code e} as a condition: unboxed if of kind BOOL, else checked ({@code what} names it in the error). */
    Ev.OfBool condition(Expr e, String what) {
        if (kind(e) == Kind.BOOL) {
            return bool(e);
        }
        Ev g = exprs.tc(e);
        return f -> Values.bool(what, g.eval(f));
    }

    /**
     * An expression of kind BOOL.
     *
     * @throws IllegalStateException if {@code e} is of another kind
     */
    Ev.OfBool bool(Expr e) {
        if (e instanceof Expr.Lit l && l.value() instanceof Boolean v) {
            boolean x = v;
            return f -> x;
        }
        if (e instanceof Expr.Local l && scope.kind(l.name()) == Kind.BOOL) {
            int slot = scope.readable(l.name());
            return f -> (Boolean) Pending.need(f.locals[slot]);
        }
        if (e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT) {
            Ev.OfBool x = condition(u.operand(), "not");
            return f -> !x.eval(f);
        }
        if (e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.IS_NULL) {
            return isNull(u.operand());
        }
        if (e instanceof Expr.Binary b) {
            switch (b.op()) {
                case EQ:
                    return equality("eq", b);
                case NE: {
                    Ev.OfBool eq = equality("ne", b);
                    return f -> !eq.eval(f);
                }
                case LT: {
                    Cmp c = ordering("lt", b);
                    return f -> c.eval(f) < 0;
                }
                case LE: {
                    Cmp c = ordering("le", b);
                    return f -> c.eval(f) <= 0;
                }
                case GT: {
                    Cmp c = ordering("gt", b);
                    return f -> c.eval(f) > 0;
                }
                case GE: {
                    Cmp c = ordering("ge", b);
                    return f -> c.eval(f) >= 0;
                }
                case AND: {
                    Ev.OfBool l = condition(b.left(), "and");
                    Ev.OfBool r = condition(b.right(), "and");
                    return f -> l.eval(f) && r.eval(f);
                }
                case OR: {
                    Ev.OfBool l = condition(b.left(), "or");
                    Ev.OfBool r = condition(b.right(), "or");
                    return f -> l.eval(f) || r.eval(f);
                }
                default:
                    break;
            }
        }
        if (e instanceof Expr.Cond c && kind(e) == Kind.BOOL) {
            Ev.OfBool t = condition(c.test(), "cond test");
            Ev.OfBool a = bool(c.then());
            Ev.OfBool o = bool(c.otherwise());
            return f -> t.eval(f) ? a.eval(f) : o.eval(f);
        }
        throw new IllegalStateException("not an expression of kind boolean: " + e);
    }

    /** {@code isNull(o)}: a value of kind LONG, DOUBLE or BOOL is never null, but is still evaluated (its errors). */
    private Ev.OfBool isNull(Expr o) {
        switch (kind(o)) {
            case LONG: {
                Ev.OfLong x = asLong(o);
                return f -> {
                    x.eval(f);
                    return false;
                };
            }
            case DOUBLE: {
                Ev.OfDouble x = asDouble(o);
                return f -> {
                    x.eval(f);
                    return false;
                };
            }
            case BOOL: {
                Ev.OfBool x = bool(o);
                return f -> {
                    x.eval(f);
                    return false;
                };
            }
            default: {
                Ev x = exprs.tc(o);
                return f -> x.eval(f) == null;
            }
        }
    }

    /** {@code eq} (named {@code op}: eq or ne, for messages) of the operands of {@code b}. */
    private Ev.OfBool equality(String op, Expr.Binary b) {
        Kind x = kind(b.left());
        Kind y = kind(b.right());
        if (x == Kind.LONG && y == Kind.LONG) {
            Ev.OfLong l = asLong(b.left());
            Ev.OfLong r = asLong(b.right());
            return f -> l.eval(f) == r.eval(f);
        }
        if (x.numeric() && y.numeric()) {
            Ev.OfDouble l = asDouble(b.left());
            Ev.OfDouble r = asDouble(b.right());
            return f -> l.eval(f) == r.eval(f);
        }
        if (x == Kind.LONG) {
            Ev.OfLong l = asLong(b.left());
            Ev r = exprs.tc(b.right());
            return f -> {
                long lv = l.eval(f);
                return PrimOps.equal(op, lv, r.eval(f), true);
            };
        }
        if (x == Kind.DOUBLE) {
            Ev.OfDouble l = asDouble(b.left());
            Ev r = exprs.tc(b.right());
            return f -> {
                double lv = l.eval(f);
                return PrimOps.equal(op, lv, r.eval(f), true);
            };
        }
        Ev l = exprs.tc(b.left());
        if (y == Kind.LONG) {
            Ev.OfLong r = asLong(b.right());
            return f -> {
                Object lv = l.eval(f);
                return PrimOps.equal(op, r.eval(f), lv, false);
            };
        }
        if (y == Kind.DOUBLE) {
            Ev.OfDouble r = asDouble(b.right());
            return f -> {
                Object lv = l.eval(f);
                return PrimOps.equal(op, r.eval(f), lv, false);
            };
        }
        Ev r = exprs.tc(b.right());
        return f -> {
            Object lv = l.eval(f);
            return Values.equal(op, lv, r.eval(f));
        };
    }

    /** The ordering ({@code lt le gt ge}, named {@code op} for messages) of the operands of {@code b}. */
    private Cmp ordering(String op, Expr.Binary b) {
        Kind x = kind(b.left());
        Kind y = kind(b.right());
        if (x == Kind.LONG && y == Kind.LONG) {
            Ev.OfLong l = asLong(b.left());
            Ev.OfLong r = asLong(b.right());
            return f -> {
                long lv = l.eval(f);
                return Long.compare(lv, r.eval(f));
            };
        }
        if (x.numeric() && y.numeric()) {
            Ev.OfDouble l = asDouble(b.left());
            Ev.OfDouble r = asDouble(b.right());
            return f -> {
                double lv = l.eval(f);
                return Double.compare(lv, r.eval(f));
            };
        }
        if (x == Kind.LONG) {
            Ev.OfLong l = asLong(b.left());
            Ev r = exprs.tc(b.right());
            return f -> {
                long lv = l.eval(f);
                return PrimOps.compare(op, lv, r.eval(f), true);
            };
        }
        if (x == Kind.DOUBLE) {
            Ev.OfDouble l = asDouble(b.left());
            Ev r = exprs.tc(b.right());
            return f -> {
                double lv = l.eval(f);
                return PrimOps.compare(op, lv, r.eval(f), true);
            };
        }
        Ev l = exprs.tc(b.left());
        if (y == Kind.LONG) {
            Ev.OfLong r = asLong(b.right());
            return f -> {
                Object lv = l.eval(f);
                return PrimOps.compare(op, r.eval(f), lv, false);
            };
        }
        if (y == Kind.DOUBLE) {
            Ev.OfDouble r = asDouble(b.right());
            return f -> {
                Object lv = l.eval(f);
                return PrimOps.compare(op, r.eval(f), lv, false);
            };
        }
        Ev r = exprs.tc(b.right());
        return f -> {
            Object lv = l.eval(f);
            return Values.compare(op, lv, r.eval(f));
        };
    }
}
