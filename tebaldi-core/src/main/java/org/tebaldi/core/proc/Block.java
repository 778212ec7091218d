package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Builder of a statement list, the body of the DSL's lambdas (see {@link Procedure} for an example). Each method
 * appends one {@link Stmt} and returns this builder. Names are checked only when the procedure is built
 * ({@link ProcedureBuilder#build()}), so errors carry the statement number.
 */
public final class Block {
    private final List<Stmt> stmts = new ArrayList<>();

    Block() {
    }

    /** The statements {@code body} appends to a fresh block (for building bodies by hand, e.g. withBody). */
    public static List<Stmt> of(Consumer<Block> body) {
        Block b = new Block();
        body.accept(b);
        return b.statements();
    }

    /** The statements appended so far (an immutable copy). */
    public List<Stmt> statements() {
        return List.copyOf(stmts);
    }

    /** Appends an already built statement. */
    public Block add(Stmt s) {
        stmts.add(Objects.requireNonNull(s, "statement"));
        return this;
    }

    /** {@code local = value}. */
    public Block let(String local, Expr value) {
        return add(new Stmt.Let(local, value));
    }

    /** Reads row {@code key} of {@code table} into local {@code into} (null if absent; {@code into} may be null). */
    public Block read(String table, String into, Expr... key) {
        return add(new Stmt.Read(table, into, List.of(key), false));
    }

    /** Like {@link #read} with write intent (exclusive lock under lock-based mechanisms). */
    public Block readForUpdate(String table, String into, Expr... key) {
        return add(new Stmt.Read(table, into, List.of(key), true));
    }

    /** Inserts or overwrites row {@code key} of {@code table}; columns not in {@code row} are null. */
    public Block write(String table, List<Assign> row, Expr... key) {
        return add(new Stmt.Write(table, row, List.of(key)));
    }

    /**
     * Read-modify-write of row {@code key} of {@code table} at the data server; assignments may use
     * {@code col(..)} (the old row) and are applied simultaneously. The new row (null if absent) goes into
     * {@code into} unless it is null.
     */
    public Block update(String table, String into, List<Assign> assignments, Expr... key) {
        return add(new Stmt.Update(table, into, assignments, List.of(key)));
    }

    /** Deletes row {@code key} of {@code table}. */
    public Block delete(String table, Expr... key) {
        return add(new Stmt.Delete(table, List.of(key)));
    }

    /** {@code if (cond) { then }}. */
    public Block ifThen(Expr cond, Consumer<Block> then) {
        return add(new Stmt.If(cond, of(then), List.of()));
    }

    /** {@code if (cond) { then } else { otherwise }}. */
    public Block ifThenElse(Expr cond, Consumer<Block> then, Consumer<Block> otherwise) {
        return add(new Stmt.If(cond, of(then), of(otherwise)));
    }

    /**
     * {@code for (var = from; var < to; var++) { body }} with at most {@code maxIterations} iterations (a run
     * whose range is larger fails); {@code maxIterations} must be at least 1.
     */
    public Block forRange(String var, Expr from, Expr to, int maxIterations, Consumer<Block> body) {
        return add(new Stmt.For(var, from, to, maxIterations, of(body)));
    }

    /** {@code local = new Object[size]}. */
    public Block newArray(String local, Expr size) {
        return add(new Stmt.NewArray(local, size));
    }

    /** {@code array[index] = value} on a local array. */
    public Block setElem(String array, Expr index, Expr value) {
        return add(new Stmt.SetElem(array, index, value));
    }

    /** Sets output {@code name}. */
    public Block output(String name, Expr value) {
        return add(new Stmt.Output(name, value));
    }

    /** Ends the run with a user abort. */
    public Block abort(String reason) {
        return add(new Stmt.Abort(reason));
    }

    /** {@code if (cond) abort(reason)} (stored as an {@link Stmt.If} around an {@link Stmt.Abort}). */
    public Block abortIf(Expr cond, String reason) {
        return add(new Stmt.If(cond, List.of(new Stmt.Abort(reason)), List.of()));
    }
}
