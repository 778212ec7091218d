package org.tebaldi.core.proc;

import java.util.Objects;

/**
 * One column assignment {@code column = value}: an element of a written row ({@link Stmt.Write}) or of an update
 * ({@link Stmt.Update}, where {@code value} may use {@code col(..)}). Built with {@link Exprs#set} or
 * {@link Exprs#row}.
 *
 * @param column column name in the statement's table (resolved against the catalog at build time)
 * @param value  the value; a long assigned to a DOUBLE column is converted to a double
 */
public record Assign(String column, Expr value) {
    /** @throws NullPointerException if {@code column} or {@code value} is null */
    public Assign {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
        return "set(\"" + column + "\", " + value + ")";
    }
}
