package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.RowUpdate;

/**
 * The read-modify-write function of a stored-procedure {@code update} (docs/architecture.md, "Transactions"): pure data that a codec can
 * ship to the data server. The TC evaluates every sub-expression that does not use {@code col(..)} before issuing
 * (partial evaluation), so {@link #assignments()} contain only literals, {@code col} references and operators.
 * {@link #apply} evaluates all assignments against the old row (simultaneous assignment, as SQL {@code UPDATE})
 * and returns the new row; a long assigned to a DOUBLE column becomes a double.
 *
 * <p>Note that partial evaluation evaluates all {@code col}-free sub-expressions at the TC, also those in a
 * {@code cond} branch the data server will not take.
 */
public final class ExprUpdate implements RowUpdate {
    private final UpdateTemplate template;
    private final Object[] args;

    ExprUpdate(UpdateTemplate template, Object[] args) {
        this.template = template;
        this.args = args;
    }

    /**
     * An update from residual assignments (what {@link #assignments()} returns), e.g. for a codec decoding one.
     *
     * @throws ProcedureException if an assignment names an unknown column, assigns a column twice, refers to a
     *                            parameter, local or field, or if a constant part fails to evaluate
     */
    public static ExprUpdate of(TableSchema table, List<Assign> assignments) {
        String name = "ExprUpdate of " + table.name();
        for (Assign a : assignments) {
            checkResidual(name, a, a.value());
        }
        Scope scope = new Scope(name, null, List.of(), Set.of(), java.util.Map.of());
        UpdateTemplate t = new ExprCompiler(scope).update(table, assignments, name + ": ");
        Frame empty = new Frame(new Object[0], null, new Object[0], null);
        Object[] args = new Object[t.holes().length];
        try {
            for (int i = 0; i < args.length; i++) {
                args[i] = Values.capture(t.holes()[i].eval(empty));
            }
        } catch (EvalException e) {
            throw new ProcedureException(name + ": " + e.getMessage());
        }
        return new ExprUpdate(t, args);
    }

    private static void checkResidual(String name, Assign a, Expr e) {
        if (e instanceof Expr.In || e instanceof Expr.Local || e instanceof Expr.Field) {
            throw new ProcedureException(name + ": assignment of " + a.column() + " refers to " + e
                    + "; only literals, col(..) and operators are allowed");
        }
        for (Expr c : e.children()) {
            checkResidual(name, a, c);
        }
    }

    /** The updated table. */
    public TableSchema table() {
        return template.table();
    }

    /**
     * The assignments with the TC-computed values substituted: expression trees of {@link Expr.Lit},
     * {@link Expr.Col} and operator nodes only.
     */
    public List<Assign> assignments() {
        int[] next = {0};
        List<Assign> out = new ArrayList<>(template.source().size());
        for (Assign a : template.source()) {
            out.add(new Assign(a.column(), residual(a.value(), next)));
        }
        return List.copyOf(out);
    }

    /** Mirrors {@link ExprCompiler#server}: holes are the maximal col-free non-literal sub-expressions. */
    private Expr residual(Expr e, int[] next) {
        if (!e.usesCol()) {
            return e instanceof Expr.Lit ? e : new Expr.Lit(args[next[0]++]);
        }
        if (e instanceof Expr.Col) {
            return e;
        }
        return e.mapChildren(c -> residual(c, next));
    }

    /**
     * Computes the new row at the data server.
     *
     * @param old the current row (of {@link #table()}), never null
     * @throws ProcedureException on an evaluation error (e.g. a null column in arithmetic), naming the procedure
     *                            and statement
     */
    @Override
    public Row apply(Row old) {
        TableSchema t = template.table();
        if (old.table().id() != t.id()) {
            throw new ProcedureException(template.context() + "update of " + t.name() + " applied to a row of "
                    + old.table().name());
        }
        Frame f = new Frame(args, null, null, old);
        Object[] values = old.values();
        int[] targets = template.targets();
        Ev[] server = template.server();
        try {
            for (int i = 0; i < targets.length; i++) {
                values[targets[i]] = Values.forColumn(t, targets[i], server[i].eval(f));
            }
        } catch (EvalException e) {
            throw new ProcedureException(template.context() + e.getMessage());
        }
        return Row.of(old.table(), values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExprUpdate u && u.table().id() == table().id() && u.assignments().equals(assignments());
    }

    @Override
    public int hashCode() {
        return Objects.hash(table().id(), assignments());
    }

    @Override
    public String toString() {
        return "ExprUpdate[" + table().name() + ": " + assignments() + "]";
    }
}
