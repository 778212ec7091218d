package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Inputs;

/**
 * The rows a procedure may write whose keys follow from its inputs alone — what a transaction can promise at
 * start (TSO promises, dissertation §4.4.4, after Faleiro et al.). A key part that reads a local (a value read
 * from the database, a loop variable) is not known at start, so its access is left out. Package-private; use
 * {@link Procedure#keysWrittenFromInputs}.
 */
final class InputKeys {
    private InputKeys() {
    }

    static List<Key> of(Procedure p, Inputs inputs) {
        Set<Key> keys = new LinkedHashSet<>();
        collect(p, p.body(), inputs, keys);
        return new ArrayList<>(keys);
    }

    /**
     * Adds the input-computable write keys of {@code block}. An {@code if} whose condition follows from the inputs
     * alone is decided now and only the branch taken is visited (e.g. a YCSB-style procedure whose operation kinds
     * are inputs promises only the rows it will update); any other compound statement has all its blocks visited.
     */
    private static void collect(Procedure p, List<Stmt> block, Inputs inputs, Set<Key> keys) {
        for (Stmt s : block) {
            if (s instanceof Stmt.Access a) {
                Key k = key(p, a, inputs);
                if (k != null) {
                    keys.add(k);
                }
            } else if (s instanceof Stmt.If i && inputsOnly(i.cond())) {
                Boolean taken;
                try {
                    taken = Values.bool("if", eval(i.cond(), p.params(), inputs));
                } catch (EvalException | ProcedureException e) {
                    taken = null; // not computable after all: both branches may run
                }
                if (taken == null || taken) {
                    collect(p, i.then(), inputs, keys);
                }
                if (taken == null || !taken) {
                    collect(p, i.otherwise(), inputs, keys);
                }
            } else {
                for (List<Stmt> b : s.blocks()) {
                    collect(p, b, inputs, keys);
                }
            }
        }
    }

    private static boolean inputsOnly(Expr e) {
        return e.localsRead().isEmpty() && !e.usesCol();
    }

    /** The key a writing access will use, if it follows from the inputs; else null. */
    private static Key key(Procedure p, Stmt.Access a, Inputs inputs) {
        if (!a.kind().writes() || a.key().stream().anyMatch(e -> !inputsOnly(e))) {
            return null;
        }
        TableSchema t = p.catalog().table(a.table());
        long[] parts = new long[a.key().size()];
        try {
            for (int i = 0; i < parts.length; i++) {
                parts[i] = Values.keyPart(eval(a.key().get(i), p.params(), inputs), i, t);
            }
        } catch (EvalException | ProcedureException e) {
            return null; // not computable from the inputs: no promise for this access
        }
        return Key.of(t, parts);
    }

    private static Object eval(Expr e, List<String> params, Inputs in) {
        if (e instanceof Expr.Lit l) {
            return l.value();
        }
        if (e instanceof Expr.In i) {
            return in.get(params.indexOf(i.param()));
        }
        if (e instanceof Expr.Unary u) {
            Object o = eval(u.operand(), params, in);
            return switch (u.op()) {
                case NEG -> Values.neg(o);
                case NOT -> !Values.bool("not", o);
                case LEN -> Values.len(o);
                case IS_NULL -> o == null;
                case TO_LONG -> Values.toLong(o);
                case TO_DOUBLE -> Values.toDouble(o);
            };
        }
        if (e instanceof Expr.Binary b) {
            Object l = eval(b.left(), params, in);
            Object r = eval(b.right(), params, in);
            return switch (b.op()) {
                case ADD -> Values.add(l, r);
                case SUB -> Values.sub(l, r);
                case MUL -> Values.mul(l, r);
                case DIV -> Values.div(l, r);
                case MOD -> Values.mod(l, r);
                case EQ -> Values.equal("eq", l, r);
                case NE -> !Values.equal("ne", l, r);
                case LT -> Values.compare("lt", l, r) < 0;
                case LE -> Values.compare("le", l, r) <= 0;
                case GT -> Values.compare("gt", l, r) > 0;
                case GE -> Values.compare("ge", l, r) >= 0;
                case AND -> Values.bool("and", l) && Values.bool("and", r);
                case OR -> Values.bool("or", l) || Values.bool("or", r);
            };
        }
        if (e instanceof Expr.Cond c) {
            return Values.bool("cond", eval(c.test(), params, in)) ? eval(c.then(), params, in)
                    : eval(c.otherwise(), params, in);
        }
        if (e instanceof Expr.Elem el) {
            return Values.elem(eval(el.array(), params, in), eval(el.index(), params, in));
        }
        if (e instanceof Expr.Concat c) {
            Object[] parts = new Object[c.parts().size()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = eval(c.parts().get(i), params, in);
            }
            return Values.concat(parts);
        }
        throw new EvalException("not computable from inputs: " + e);
    }
}
