package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.tebaldi.core.proc.Expr.BinaryOp;
import org.tebaldi.core.proc.Expr.UnaryOp;

/**
 * Static factories for {@link Expr} (use {@code import static org.tebaldi.core.proc.Exprs.*}), docs/architecture.md, "Transactions".
 *
 * <p>Run-time semantics; every violation is a {@link ProcedureException} naming the procedure and statement:
 * <ul>
 *   <li>Arithmetic ({@code add sub mul div mod neg}): long op long gives a long (overflow is an error, {@code div}
 *       truncates), any double operand gives a double. Division or modulo by zero, a null operand or a
 *       non-number is an error.</li>
 *   <li>{@code eq/ne}: null equals only null; numbers compare numerically (1L equals 1.0); strings, booleans,
 *       byte arrays, arrays and rows by content. Comparing two non-null values of different kinds (e.g. a
 *       string with a long) is an error.</li>
 *   <li>{@code lt le gt ge}: two numbers or two strings; null is an error.</li>
 *   <li>{@code and or not cond} and statement conditions need booleans; {@code and/or} short-circuit.</li>
 *   <li>{@code elem/len} work on input arrays ({@code long[]}) and local arrays; indexes are longs from 0.</li>
 * </ul>
 */
public final class Exprs {
    private Exprs() {
    }

    /** A long constant. */
    public static Expr lit(long v) {
        return new Expr.Lit(v);
    }

    /** A double constant. */
    public static Expr lit(double v) {
        return new Expr.Lit(v);
    }

    /** A string constant. @throws NullPointerException for null (use {@link #litNull()}) */
    public static Expr lit(String v) {
        return new Expr.Lit(Objects.requireNonNull(v, "use litNull()"));
    }

    /** A byte-array constant (copied). */
    public static Expr lit(byte[] v) {
        return new Expr.Lit(v.clone());
    }

    /** A boolean constant. */
    public static Expr lit(boolean v) {
        return new Expr.Lit(v);
    }

    /** The null constant. */
    public static Expr litNull() {
        return new Expr.Lit(null);
    }

    /** Input parameter {@code param}; must be one of the procedure's parameters (checked at build time). */
    public static Expr in(String param) {
        return new Expr.In(param);
    }

    /** Local variable {@code name}; must be definitely assigned where it is used (checked at build time). */
    public static Expr local(String name) {
        return new Expr.Local(name);
    }

    /** Column {@code column} of the row in local {@code rowLocal} (defined by a read or update). */
    public static Expr field(String rowLocal, String column) {
        return new Expr.Field(rowLocal, column);
    }

    /** Column {@code column} of the old row; only inside update assignments, evaluated at the data server. */
    public static Expr col(String column) {
        return new Expr.Col(column);
    }

    /** {@code a + b}. */
    public static Expr add(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.ADD, a, b);
    }

    /** {@code a - b}. */
    public static Expr sub(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.SUB, a, b);
    }

    /** {@code a * b}. */
    public static Expr mul(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.MUL, a, b);
    }

    /** {@code a / b} (truncating for longs). */
    public static Expr div(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.DIV, a, b);
    }

    /** {@code a % b} (sign of {@code a}, as in Java). */
    public static Expr mod(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.MOD, a, b);
    }

    /** {@code -a}. */
    public static Expr neg(Expr a) {
        return new Expr.Unary(UnaryOp.NEG, a);
    }

    /** {@code a == b} (see the class doc for null and mixed numbers). */
    public static Expr eq(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.EQ, a, b);
    }

    /** {@code a != b}. */
    public static Expr ne(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.NE, a, b);
    }

    /** {@code a < b}. */
    public static Expr lt(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.LT, a, b);
    }

    /** {@code a <= b}. */
    public static Expr le(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.LE, a, b);
    }

    /** {@code a > b}. */
    public static Expr gt(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.GT, a, b);
    }

    /** {@code a >= b}. */
    public static Expr ge(Expr a, Expr b) {
        return new Expr.Binary(BinaryOp.GE, a, b);
    }

    /** {@code a && b && more...} (short-circuit, left-nested binary nodes). */
    public static Expr and(Expr a, Expr b, Expr... more) {
        Expr e = new Expr.Binary(BinaryOp.AND, a, b);
        for (Expr m : more) {
            e = new Expr.Binary(BinaryOp.AND, e, m);
        }
        return e;
    }

    /** {@code a || b || more...} (short-circuit, left-nested binary nodes). */
    public static Expr or(Expr a, Expr b, Expr... more) {
        Expr e = new Expr.Binary(BinaryOp.OR, a, b);
        for (Expr m : more) {
            e = new Expr.Binary(BinaryOp.OR, e, m);
        }
        return e;
    }

    /** {@code !a}. */
    public static Expr not(Expr a) {
        return new Expr.Unary(UnaryOp.NOT, a);
    }

    /** {@code c ? a : b}. */
    public static Expr cond(Expr c, Expr a, Expr b) {
        return new Expr.Cond(c, a, b);
    }

    /** {@code array[index]}. */
    public static Expr elem(Expr array, Expr index) {
        return new Expr.Elem(array, index);
    }

    /** Length of an array, as a long. */
    public static Expr len(Expr array) {
        return new Expr.Unary(UnaryOp.LEN, array);
    }

    /** True if {@code e} is null (e.g. a read found no row). */
    public static Expr isNull(Expr e) {
        return new Expr.Unary(UnaryOp.IS_NULL, e);
    }

    /** Concatenation of strings (longs, doubles and booleans are printed as by {@code String.valueOf}). */
    public static Expr concat(Expr... parts) {
        return new Expr.Concat(List.of(parts));
    }

    /** A long from a long, a double (truncated toward zero) or a decimal string. */
    public static Expr toLong(Expr e) {
        return new Expr.Unary(UnaryOp.TO_LONG, e);
    }

    /** A double from a long, a double or a decimal string. */
    public static Expr toDouble(Expr e) {
        return new Expr.Unary(UnaryOp.TO_DOUBLE, e);
    }

    /** The assignment {@code column = value}, for {@code update} and {@code row}. */
    public static Assign set(String column, Expr value) {
        return new Assign(column, value);
    }

    /**
     * The column values of a written row, as alternating column names and expressions:
     * {@code row("h_c_id", in("c_id"), "h_amount", in("h_amount"))}. Unnamed columns are written as null.
     *
     * @throws ProcedureException if the arguments are not (String, Expr) pairs
     */
    public static List<Assign> row(Object... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new ProcedureException("row(...) needs column name / expression pairs, got "
                    + namesAndValues.length + " arguments");
        }
        List<Assign> out = new ArrayList<>(namesAndValues.length / 2);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (!(namesAndValues[i] instanceof String name) || !(namesAndValues[i + 1] instanceof Expr value)) {
                throw new ProcedureException("row(...) argument " + i + " and " + (i + 1)
                        + " must be a column name and an expression");
            }
            out.add(new Assign(name, value));
        }
        return List.copyOf(out);
    }
}
