package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.OpKind;

/**
 * A stored procedure (docs/architecture.md, "Transactions", dissertation §5.4.2): a name, input parameters and a body of {@link Stmt}s
 * over the tables of a {@link Catalog}. Immutable; the body is checked and compiled once, at construction, into
 * a flat instruction program that every {@link #start run} interprets. The TC drives a run with
 * {@link ProcRun#next} (docs/architecture.md, "Runtime": it never blocks); runtime pipelining (§4.4.2) and TSO promises (§4.4.4)
 * read {@link #body()} / {@link #accesses()} and may install a reordered body with {@link #withBody}.
 *
 * <p>Example (TPC-C-like payment fragment):
 * <pre>{@code
 * import static org.tebaldi.core.proc.Exprs.*;
 *
 * Procedure payment = Procedure.define("payment", catalog)
 *     .params("w_id", "d_id", "c_id", "h_amount", "item_ids", "h_id")
 *     .body(b -> {
 *         b.update("warehouse", "w", List.of(set("w_ytd", add(col("w_ytd"), in("h_amount")))), in("w_id"));
 *         b.read("customer", "c", in("w_id"), in("d_id"), in("c_id"));
 *         b.abortIf(isNull(local("c")), "no such customer");
 *         b.ifThenElse(eq(field("c", "c_credit"), lit("BC")),
 *             t -> t.update("customer", null,
 *                     List.of(set("c_balance", sub(col("c_balance"), in("h_amount")))),
 *                     in("w_id"), in("d_id"), in("c_id")),
 *             e -> e.let("x", lit(1L)));
 *         b.newArray("qty", len(in("item_ids")));
 *         b.forRange("i", lit(0L), len(in("item_ids")), 15, body -> {
 *             body.read("stock", "s", in("w_id"), elem(in("item_ids"), local("i")));
 *             body.setElem("qty", local("i"), field("s", "s_quantity"));
 *         });
 *         b.write("history", row("h_c_id", in("c_id"), "h_amount", in("h_amount")), in("w_id"), in("h_id"));
 *         b.output("balance", field("c", "c_balance"));
 *     })
 *     .build();
 * }</pre>
 *
 * <p>Build-time checks ({@link ProcedureException} naming the statement): unknown table or column, wrong key
 * arity, unknown parameter, a local that no statement assigns or that may be unassigned where it is read
 * (definite assignment as in Java; after {@code abort} everything counts as assigned), a local assigned values of
 * different shapes (value / array / row of a table), {@code field} on a non-row local, {@code setElem} on a
 * non-array, {@code col} outside update assignments, a loop variable assigned in its loop, a local named like a
 * parameter, a column assigned twice, {@code maxIterations < 1}.
 */
public final class Procedure {
    private final String name;
    private final List<String> params;
    private final Catalog catalog;
    private final List<Stmt> body;
    private final Program program;
    private final List<Stmt.Access> accesses;
    private final boolean readOnly;

    private Procedure(String name, Catalog catalog, List<String> params, List<Stmt> body) {
        this.name = Objects.requireNonNull(name, "name");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.params = List.copyOf(params);
        this.body = List.copyOf(body);
        if (name.isEmpty()) {
            throw new ProcedureException("procedure name is empty");
        }
        Set<String> seen = new HashSet<>();
        for (String p : this.params) {
            if (!seen.add(p)) {
                throw new ProcedureException(name + ": duplicate parameter '" + p + "'");
            }
        }
        this.program = Compiler.compile(name, catalog, this.params, this.body);
        List<Stmt.Access> acc = new ArrayList<>();
        for (Stmt s : Stmt.flatten(this.body)) {
            if (s instanceof Stmt.Access a) {
                acc.add(a);
            }
        }
        this.accesses = Collections.unmodifiableList(acc);
        this.readOnly = acc.stream().allMatch(a -> a.kind() == OpKind.READ);
    }

    /** Starts building a procedure over the tables of {@code catalog}. */
    public static ProcedureBuilder define(String name, Catalog catalog) {
        return new ProcedureBuilder(name, catalog);
    }

    /**
     * A procedure from an AST built by hand.
     *
     * @throws ProcedureException on any build-time error (see the class doc)
     */
    public static Procedure of(String name, Catalog catalog, List<String> params, List<Stmt> body) {
        return new Procedure(name, catalog, params, body);
    }

    /** E.g. {@code new_order}. */
    public String name() {
        return name;
    }

    /** Input names, in the positional order of {@link Inputs}. */
    public List<String> params() {
        return params;
    }

    /** The catalog the body's table and column names refer to. */
    public Catalog catalog() {
        return catalog;
    }

    /** The body (immutable AST). */
    public List<Stmt> body() {
        return body;
    }

    /**
     * The keys this procedure may write that follow from {@code inputs} alone (no value read from the database or
     * loop variable in the key) — what a transaction can promise at start (TSO promises, dissertation §4.4.4). A
     * promised write may still not happen (e.g. under a condition on values read); a condition on the inputs alone
     * is decided here, and only the branch it takes is promised.
     */
    public List<org.tebaldi.core.model.Key> keysWrittenFromInputs(Inputs inputs) {
        return InputKeys.of(this, inputs);
    }

    /** True if no statement writes, updates, deletes or reads for update. */
    public boolean readOnly() {
        return readOnly;
    }

    /** All data-operation statements, nested ones included, in pre-order (program text order). */
    public List<Stmt.Access> accesses() {
        return accesses;
    }

    /** Names of the tables the body accesses, in order of first appearance. */
    public Set<String> tablesAccessed() {
        Set<String> out = new LinkedHashSet<>();
        for (Stmt.Access a : accesses) {
            out.add(a.table());
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * The same procedure (name, parameters, catalog) with another body, e.g. reordered by runtime pipelining's
     * analysis (§4.4.2); checked and compiled anew.
     *
     * @throws ProcedureException if the new body fails a build-time check
     */
    public Procedure withBody(List<Stmt> newBody) {
        return new Procedure(name, catalog, params, newBody);
    }

    /**
     * Starts one execution; call {@link ProcRun#next} with null first.
     *
     * @param inputs values in {@link #params()} order: Long, Double, String, Boolean, byte[], long[] or null
     * @throws IllegalArgumentException if the number of inputs differs from {@code params().size()} or an input
     *                                  has another type (e.g. Integer: pass {@code 1L})
     */
    public ProcRun start(Inputs inputs) {
        return new Run(program, checked(inputs), false);
    }

    /**
     * Starts one batched execution; call {@link ProcRun#resume} with an empty list first. Operations that do not
     * need each other's results go out together ({@link ProcStep.Batch}).
     *
     * @throws IllegalArgumentException as {@link #start}
     */
    public ProcRun startBatched(Inputs inputs) {
        return new Run(program, checked(inputs), true);
    }

    private Inputs checked(Inputs inputs) {
        if (inputs.size() != params.size()) {
            throw new IllegalArgumentException(name + " takes " + params.size() + " inputs " + params + ", got "
                    + inputs.size());
        }
        Object[] values = inputs.values();
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            if (!Values.isValue(v) || v instanceof Object[] || v instanceof Row) {
                throw new IllegalArgumentException(name + ": input '" + params.get(i) + "' is a "
                        + v.getClass().getSimpleName() + "; inputs must be Long, Double, String, Boolean, byte[], "
                        + "long[] or null (use 1L, not 1)");
            }
        }
        return inputs;
    }

    @Override
    public String toString() {
        return "procedure " + name + params;
    }
}
