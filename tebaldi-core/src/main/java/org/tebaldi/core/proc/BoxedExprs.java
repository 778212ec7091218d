package org.tebaldi.core.proc;

import java.util.function.Function;

/**
 * Boxed evaluation of operator nodes and literals ({@link Expr.Unary}, {@link Expr.Binary}, {@link Expr.Cond},
 * {@link Expr.Elem}, {@link Expr.Concat}, {@link Expr.Lit}): each operator is the {@link Values} operation on its
 * operands' boxed values, the operands evaluated left to right before it (the semantics typed evaluation,
 * {@link TypedExprs} and {@link BoolExprs}, reproduces). Used by {@link ExprCompiler} for expressions of kind ANY at
 * the TC and for update templates at the data server. Package-private.
 */
final class BoxedExprs {
    private BoxedExprs() {
    }

    /** Compiles the operator nodes and literals; {@code sub} compiles children, in {@link Expr#children} order. */
    static Ev node(Expr e, Function<Expr, Ev> sub) {
        if (e instanceof Expr.Lit l) {
            Object v = l.value();
            return f -> v;
        }
        if (e instanceof Expr.Unary u) {
            return unary(u.op(), sub.apply(u.operand()));
        }
        if (e instanceof Expr.Binary b) {
            Ev l = sub.apply(b.left());
            Ev r = sub.apply(b.right());
            return binary(b.op(), l, r);
        }
        if (e instanceof Expr.Cond c) {
            Ev t = sub.apply(c.test());
            Ev a = sub.apply(c.then());
            Ev o = sub.apply(c.otherwise());
            return f -> Values.bool("cond test", t.eval(f)) ? a.eval(f) : o.eval(f);
        }
        if (e instanceof Expr.Elem el) {
            Ev a = sub.apply(el.array());
            Ev i = sub.apply(el.index());
            return f -> Pending.need(Values.elem(a.eval(f), i.eval(f)));
        }
        if (e instanceof Expr.Concat c) {
            Ev[] parts = new Ev[c.parts().size()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = sub.apply(c.parts().get(i));
            }
            return f -> {
                Object[] vs = new Object[parts.length];
                for (int i = 0; i < vs.length; i++) {
                    vs[i] = parts[i].eval(f);
                }
                return Values.concat(vs);
            };
        }
        throw new IllegalStateException("unexpected expression " + e);
    }

    private static Ev unary(Expr.UnaryOp op, Ev o) {
        switch (op) {
            case NEG:
                return f -> Values.neg(o.eval(f));
            case NOT:
                return f -> !Values.bool("not", o.eval(f));
            case LEN:
                return f -> Values.len(o.eval(f));
            case IS_NULL:
                return f -> o.eval(f) == null;
            case TO_LONG:
                return f -> Values.toLong(o.eval(f));
            case TO_DOUBLE:
                return f -> Values.toDouble(o.eval(f));
            default:
                throw new IllegalStateException(op.name());
        }
    }

    private static Ev binary(Expr.BinaryOp op, Ev l, Ev r) {
        switch (op) {
            case ADD:
                return f -> Values.add(l.eval(f), r.eval(f));
            case SUB:
                return f -> Values.sub(l.eval(f), r.eval(f));
            case MUL:
                return f -> Values.mul(l.eval(f), r.eval(f));
            case DIV:
                return f -> Values.div(l.eval(f), r.eval(f));
            case MOD:
                return f -> Values.mod(l.eval(f), r.eval(f));
            case EQ:
                return f -> Values.equal("eq", l.eval(f), r.eval(f));
            case NE:
                return f -> !Values.equal("ne", l.eval(f), r.eval(f));
            case LT:
                return f -> Values.compare("lt", l.eval(f), r.eval(f)) < 0;
            case LE:
                return f -> Values.compare("le", l.eval(f), r.eval(f)) <= 0;
            case GT:
                return f -> Values.compare("gt", l.eval(f), r.eval(f)) > 0;
            case GE:
                return f -> Values.compare("ge", l.eval(f), r.eval(f)) >= 0;
            case AND:
                return f -> Values.bool("and", l.eval(f)) && Values.bool("and", r.eval(f));
            case OR:
                return f -> Values.bool("or", l.eval(f)) || Values.bool("or", r.eval(f));
            default:
                throw new IllegalStateException(op.name());
        }
    }
}
