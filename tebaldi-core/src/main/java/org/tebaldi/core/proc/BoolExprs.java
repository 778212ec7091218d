package org.tebaldi.core.proc;

import org.tebaldi.core.proc.Kinds.Kind;

/**
 * Compiles expressions of static kind BOOL ({@link Kinds}) — comparisons, {@code and}/{@code or}/{@code not}, null
 * tests, conditionals and boolean locals — and conditions to unboxed evaluators ({@link Ev.OfBool}). Operands of kind
 * LONG or DOUBLE are evaluated unboxed ({@link TypedExprs}), operands of kind ANY boxed by the {@link ExprCompiler}
 * and compared by {@link PrimOps}. As with {@link TypedExprs}, each evaluator returns what the boxed evaluation
 * ({@link Values}) returns and throws the same errors, evaluating and compiling operands left to right.
 * Package-private.
 */
final class BoolExprs {
    private final Scope scope;
    private final ExprCompiler exprs;
    private final TypedExprs nums;

    BoolExprs(Scope scope, ExprCompiler exprs, TypedExprs nums) {
        this.scope = scope;
        this.exprs = exprs;
        this.nums = nums;
    }

    private Kind kind(Expr e) {
        return exprs.kind(e);
    }

    /** A comparison's three-way result (sign only), unboxed. */
    @FunctionalInterface
    private interface Cmp {
        int eval(Frame f);
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
                Ev.OfLong x = nums.asLong(o);
                return f -> {
                    x.eval(f);
                    return false;
                };
            }
            case DOUBLE: {
                Ev.OfDouble x = nums.asDouble(o);
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
            Ev.OfLong l = nums.asLong(b.left());
            Ev.OfLong r = nums.asLong(b.right());
            return f -> l.eval(f) == r.eval(f);
        }
        if (x.numeric() && y.numeric()) {
            Ev.OfDouble l = nums.asDouble(b.left());
            Ev.OfDouble r = nums.asDouble(b.right());
            return f -> l.eval(f) == r.eval(f);
        }
        if (x == Kind.LONG) {
            Ev.OfLong l = nums.asLong(b.left());
            Ev r = exprs.tc(b.right());
            return f -> {
                long lv = l.eval(f);
                return PrimOps.equal(op, lv, r.eval(f), true);
            };
        }
        if (x == Kind.DOUBLE) {
            Ev.OfDouble l = nums.asDouble(b.left());
            Ev r = exprs.tc(b.right());
            return f -> {
                double lv = l.eval(f);
                return PrimOps.equal(op, lv, r.eval(f), true);
            };
        }
        Ev l = exprs.tc(b.left());
        if (y == Kind.LONG) {
            Ev.OfLong r = nums.asLong(b.right());
            return f -> {
                Object lv = l.eval(f);
                return PrimOps.equal(op, r.eval(f), lv, false);
            };
        }
        if (y == Kind.DOUBLE) {
            Ev.OfDouble r = nums.asDouble(b.right());
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
            Ev.OfLong l = nums.asLong(b.left());
            Ev.OfLong r = nums.asLong(b.right());
            return f -> {
                long lv = l.eval(f);
                return Long.compare(lv, r.eval(f));
            };
        }
        if (x.numeric() && y.numeric()) {
            Ev.OfDouble l = nums.asDouble(b.left());
            Ev.OfDouble r = nums.asDouble(b.right());
            return f -> {
                double lv = l.eval(f);
                return Double.compare(lv, r.eval(f));
            };
        }
        if (x == Kind.LONG) {
            Ev.OfLong l = nums.asLong(b.left());
            Ev r = exprs.tc(b.right());
            return f -> {
                long lv = l.eval(f);
                return PrimOps.compare(op, lv, r.eval(f), true);
            };
        }
        if (x == Kind.DOUBLE) {
            Ev.OfDouble l = nums.asDouble(b.left());
            Ev r = exprs.tc(b.right());
            return f -> {
                double lv = l.eval(f);
                return PrimOps.compare(op, lv, r.eval(f), true);
            };
        }
        Ev l = exprs.tc(b.left());
        if (y == Kind.LONG) {
            Ev.OfLong r = nums.asLong(b.right());
            return f -> {
                Object lv = l.eval(f);
                return PrimOps.compare(op, r.eval(f), lv, false);
            };
        }
        if (y == Kind.DOUBLE) {
            Ev.OfDouble r = nums.asDouble(b.right());
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
