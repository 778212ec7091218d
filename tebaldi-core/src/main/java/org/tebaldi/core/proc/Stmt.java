package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.tebaldi.core.txn.OpKind;

/**
 * A statement of the stored-procedure language (docs/architecture.md, "Transactions", dissertation §5.4.2): immutable data built by
 * {@link Block}, or by hand for rewritten bodies ({@link Procedure#withBody}). Names (tables, columns, locals,
 * parameters) are plain strings here; {@link Procedure} resolves and checks them at build time.
 *
 * <p>Statements are numbered 1, 2, ... in pre-order ({@link #flatten}); run-time and build-time errors name that
 * number and {@link #describe()}, e.g. {@code "new_order: statement 7 (read stock): ..."}.
 *
 * <p>For analyses: {@link #exprs()} are the expressions the statement itself evaluates (for {@code If} and
 * {@code For} only the condition / bounds, not the nested blocks), {@link #localsRead()} / {@link #paramsRead()}
 * the names they read, {@link #defines()} the local it assigns, {@link #blocks()} its nested statement lists,
 * and {@link Access} marks the data operations.
 */
public sealed interface Stmt {

    /** The expressions this statement evaluates itself, in evaluation order (nested blocks excluded). */
    List<Expr> exprs();

    /** Nested statement lists: {@code If} gives [then, otherwise], {@code For} gives [body], others none. */
    default List<List<Stmt>> blocks() {
        return List.of();
    }

    /**
     * The local this statement assigns: {@code Let}, {@code NewArray}, {@code SetElem} (element of the array),
     * {@code Read}/{@code Update} with a target local, {@code For} (its loop variable).
     */
    default Optional<String> defines() {
        return Optional.empty();
    }

    /** Locals read by {@link #exprs()}; a {@code SetElem} also reads its array (it changes one element). */
    default Set<String> localsRead() {
        Set<String> out = new LinkedHashSet<>();
        if (this instanceof SetElem s) {
            out.add(s.array());
        }
        for (Expr e : exprs()) {
            out.addAll(e.localsRead());
        }
        return Collections.unmodifiableSet(out);
    }

    /** Input parameters read by {@link #exprs()}. */
    default Set<String> paramsRead() {
        Set<String> out = new LinkedHashSet<>();
        for (Expr e : exprs()) {
            out.addAll(e.paramsRead());
        }
        return Collections.unmodifiableSet(out);
    }

    /** Short label for messages, e.g. {@code "read stock"}, {@code "for i"}, {@code "let x"}. */
    String describe();

    /** All statements of {@code body}, nested ones included, in pre-order (index + 1 = statement number). */
    static List<Stmt> flatten(List<Stmt> body) {
        List<Stmt> out = new ArrayList<>();
        flattenInto(body, out);
        return Collections.unmodifiableList(out);
    }

    private static void flattenInto(List<Stmt> body, List<Stmt> out) {
        for (Stmt s : body) {
            out.add(s);
            for (List<Stmt> b : s.blocks()) {
                flattenInto(b, out);
            }
        }
    }

    /** A data operation on one row of {@link #table()} addressed by {@link #key()} (one expression per part). */
    sealed interface Access extends Stmt permits Read, Write, Update, Delete {
        /** Table name. */
        String table();

        /** Key part expressions; each must evaluate to a long. */
        List<Expr> key();

        /** The operation kind issued. */
        OpKind kind();
    }

    /** {@code local = value}. Assigning an array copies it (arrays have value semantics). */
    record Let(String local, Expr value) implements Stmt {
        public Let {
            Objects.requireNonNull(local, "local");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public List<Expr> exprs() {
            return List.of(value);
        }

        @Override
        public Optional<String> defines() {
            return Optional.of(local);
        }

        @Override
        public String describe() {
            return "let " + local;
        }
    }

    /**
     * Reads a row into {@code into} (null if absent); {@code into} may be null to discard it (e.g. a
     * read-for-update taken only for its lock).
     */
    record Read(String table, String into, List<Expr> key, boolean forUpdate) implements Access {
        public Read {
            Objects.requireNonNull(table, "table");
            key = List.copyOf(key);
        }

        @Override
        public OpKind kind() {
            return forUpdate ? OpKind.READ_FOR_UPDATE : OpKind.READ;
        }

        @Override
        public List<Expr> exprs() {
            return key;
        }

        @Override
        public Optional<String> defines() {
            return Optional.ofNullable(into);
        }

        @Override
        public String describe() {
            return (forUpdate ? "readForUpdate " : "read ") + table;
        }
    }

    /** Inserts or overwrites a row; columns not in {@code row} are null. */
    record Write(String table, List<Assign> row, List<Expr> key) implements Access {
        public Write {
            Objects.requireNonNull(table, "table");
            row = List.copyOf(row);
            key = List.copyOf(key);
        }

        @Override
        public OpKind kind() {
            return OpKind.WRITE;
        }

        @Override
        public List<Expr> exprs() {
            return Stream.concat(key.stream(), row.stream().map(Assign::value)).toList();
        }

        @Override
        public String describe() {
            return "write " + table;
        }
    }

    /**
     * Read-modify-write at the data server: every assignment is evaluated against the old row ({@code col(..)});
     * the new row (null if the row was absent, in which case nothing is written) goes into {@code into} unless it
     * is null. Sub-expressions without {@code col} are evaluated at the TC before issuing ({@link ExprUpdate}).
     */
    record Update(String table, String into, List<Assign> assignments, List<Expr> key) implements Access {
        public Update {
            Objects.requireNonNull(table, "table");
            assignments = List.copyOf(assignments);
            key = List.copyOf(key);
        }

        @Override
        public OpKind kind() {
            return OpKind.UPDATE;
        }

        @Override
        public List<Expr> exprs() {
            return Stream.concat(key.stream(), assignments.stream().map(Assign::value)).toList();
        }

        @Override
        public Optional<String> defines() {
            return Optional.ofNullable(into);
        }

        @Override
        public String describe() {
            return "update " + table;
        }
    }

    /** Deletes a row (no effect if absent). */
    record Delete(String table, List<Expr> key) implements Access {
        public Delete {
            Objects.requireNonNull(table, "table");
            key = List.copyOf(key);
        }

        @Override
        public OpKind kind() {
            return OpKind.DELETE;
        }

        @Override
        public List<Expr> exprs() {
            return key;
        }

        @Override
        public String describe() {
            return "delete " + table;
        }
    }

    /** {@code if (cond) then else otherwise}; {@code cond} must be a boolean; {@code otherwise} may be empty. */
    record If(Expr cond, List<Stmt> then, List<Stmt> otherwise) implements Stmt {
        public If {
            Objects.requireNonNull(cond, "cond");
            then = List.copyOf(then);
            otherwise = List.copyOf(otherwise);
        }

        @Override
        public List<Expr> exprs() {
            return List.of(cond);
        }

        @Override
        public List<List<Stmt>> blocks() {
            return List.of(then, otherwise);
        }

        @Override
        public String describe() {
            return "if";
        }
    }

    /**
     * {@code for (var = from; var < to; var++) body}, bounds (longs) evaluated once on entry. If
     * {@code to - from > maxIterations} the run fails with a {@link ProcedureException} before the first
     * iteration. The body must not assign {@code var}.
     */
    record For(String var, Expr from, Expr to, int maxIterations, List<Stmt> body) implements Stmt {
        public For {
            Objects.requireNonNull(var, "var");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            body = List.copyOf(body);
        }

        @Override
        public List<Expr> exprs() {
            return List.of(from, to);
        }

        @Override
        public List<List<Stmt>> blocks() {
            return List.of(body);
        }

        @Override
        public Optional<String> defines() {
            return Optional.of(var);
        }

        @Override
        public String describe() {
            return "for " + var;
        }
    }

    /** {@code local = new Object[size]} (elements null; size a long in 0..1048576). */
    record NewArray(String local, Expr size) implements Stmt {
        public NewArray {
            Objects.requireNonNull(local, "local");
            Objects.requireNonNull(size, "size");
        }

        @Override
        public List<Expr> exprs() {
            return List.of(size);
        }

        @Override
        public Optional<String> defines() {
            return Optional.of(local);
        }

        @Override
        public String describe() {
            return "newArray " + local;
        }
    }

    /** {@code array[index] = value} on a local array created by {@code newArray}. */
    record SetElem(String array, Expr index, Expr value) implements Stmt {
        public SetElem {
            Objects.requireNonNull(array, "array");
            Objects.requireNonNull(index, "index");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public List<Expr> exprs() {
            return List.of(index, value);
        }

        @Override
        public Optional<String> defines() {
            return Optional.of(array);
        }

        @Override
        public String describe() {
            return "setElem " + array;
        }
    }

    /** Sets output {@code name} of {@link ProcStep.Done} (a later output of the same name replaces it). */
    record Output(String name, Expr value) implements Stmt {
        public Output {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public List<Expr> exprs() {
            return List.of(value);
        }

        @Override
        public String describe() {
            return "output " + name;
        }
    }

    /** Ends the run with {@link ProcStep.Abort}{@code (reason)} (a user abort). */
    record Abort(String reason) implements Stmt {
        public Abort {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public List<Expr> exprs() {
            return List.of();
        }

        @Override
        public String describe() {
            return "abort";
        }
    }
}
