package org.tebaldi.core.proc;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * An expression of the stored-procedure language (docs/architecture.md, "Transactions"): immutable data, built with the static factories
 * of {@link Exprs}. Analyses (runtime pipelining §4.4.2, TSO promises §4.4.4) walk it with {@link #children()},
 * {@link #localsRead()}, {@link #paramsRead()}, and rewrite it with {@link #mapChildren}.
 *
 * <p>Values at run time: {@link Long}, {@link Double}, {@link String}, {@code byte[]}, {@link Boolean} (results of
 * comparisons), {@code long[]} (input arrays), {@code Object[]} (local arrays), {@link org.tebaldi.core.model.Row}
 * and {@code null}. Semantics of each operator are in {@link Exprs}.
 *
 * <p>{@code toString()} prints the expression in DSL form, e.g. {@code add(col("w_ytd"), in("h_amount"))}.
 */
public sealed interface Expr {

    /** Direct sub-expressions, left to right (the order in which they are evaluated). */
    List<Expr> children();

    /**
     * A copy of this node with every direct sub-expression {@code c} replaced by {@code f.apply(c)}, applied left
     * to right; leaves return themselves.
     */
    Expr mapChildren(UnaryOperator<Expr> f);

    /** Names of the locals this expression reads ({@code local(..)}, the row local of {@code field(..)}). */
    default Set<String> localsRead() {
        Set<String> out = new LinkedHashSet<>();
        collect(this, out, false);
        return Collections.unmodifiableSet(out);
    }

    /** Names of the input parameters this expression reads ({@code in(..)}). */
    default Set<String> paramsRead() {
        Set<String> out = new LinkedHashSet<>();
        collect(this, out, true);
        return Collections.unmodifiableSet(out);
    }

    /** True if a {@code col(..)} reference (old row column of an update) appears in this expression. */
    default boolean usesCol() {
        if (this instanceof Col) {
            return true;
        }
        for (Expr c : children()) {
            if (c.usesCol()) {
                return true;
            }
        }
        return false;
    }

    private static void collect(Expr e, Set<String> out, boolean params) {
        if (params && e instanceof In in) {
            out.add(in.param());
        } else if (!params && e instanceof Local l) {
            out.add(l.name());
        } else if (!params && e instanceof Field f) {
            out.add(f.row());
        }
        for (Expr c : e.children()) {
            collect(c, out, params);
        }
    }

    /**
     * A constant. {@code value} is null or one of the run-time value types (see {@link Expr}); arrays inside
     * must not be mutated. The constructor throws {@link ProcedureException} for any other type (e.g.
     * {@link Integer}: use {@code 1L}).
     */
    record Lit(Object value) implements Expr {
        public Lit {
            if (!Values.isValue(value)) {
                throw new ProcedureException("unsupported literal type " + value.getClass().getName()
                        + "; literals are Long, Double, String, byte[], Boolean, long[], Object[], Row or null");
            }
        }

        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Lit l && Objects.deepEquals(value, l.value);
        }

        @Override
        public int hashCode() {
            return Arrays.deepHashCode(new Object[] {value});
        }

        @Override
        public String toString() {
            if (value == null) {
                return "litNull()";
            }
            if (value instanceof String s) {
                return "lit(\"" + s + "\")";
            }
            if (value instanceof Long || value instanceof Double || value instanceof Boolean) {
                return "lit(" + value + ")";
            }
            return "lit(" + Values.show(value) + ")";
        }
    }

    /** The value of input parameter {@code param} (evaluated at the TC). */
    record In(String param) implements Expr {
        public In {
            Objects.requireNonNull(param, "param");
        }

        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            return this;
        }

        @Override
        public String toString() {
            return "in(\"" + param + "\")";
        }
    }

    /** The value of local variable {@code name}. */
    record Local(String name) implements Expr {
        public Local {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            return this;
        }

        @Override
        public String toString() {
            return "local(\"" + name + "\")";
        }
    }

    /**
     * Column {@code column} of the row held by local {@code row} (a local defined by a read or update, so its
     * table is known at build time). Evaluating it when the row is null (absent) is a run-time error.
     */
    record Field(String row, String column) implements Expr {
        public Field {
            Objects.requireNonNull(row, "row");
            Objects.requireNonNull(column, "column");
        }

        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            return this;
        }

        @Override
        public String toString() {
            return "field(\"" + row + "\", \"" + column + "\")";
        }
    }

    /** Column {@code column} of the old row of an update; only allowed in update assignments (data-server side). */
    record Col(String column) implements Expr {
        public Col {
            Objects.requireNonNull(column, "column");
        }

        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            return this;
        }

        @Override
        public String toString() {
            return "col(\"" + column + "\")";
        }
    }

    /** A one-operand operator applied to {@code operand}. */
    record Unary(UnaryOp op, Expr operand) implements Expr {
        public Unary {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(operand, "operand");
        }

        @Override
        public List<Expr> children() {
            return List.of(operand);
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            return new Unary(op, f.apply(operand));
        }

        @Override
        public String toString() {
            return op.dslName() + "(" + operand + ")";
        }
    }

    /** A two-operand operator; {@code AND}/{@code OR} evaluate {@code right} only when needed. */
    record Binary(BinaryOp op, Expr left, Expr right) implements Expr {
        public Binary {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(right, "right");
        }

        @Override
        public List<Expr> children() {
            return List.of(left, right);
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            Expr l = f.apply(left);
            return new Binary(op, l, f.apply(right));
        }

        @Override
        public String toString() {
            return op.dslName() + "(" + left + ", " + right + ")";
        }
    }

    /** {@code test ? then : otherwise}; only the chosen branch is evaluated. */
    record Cond(Expr test, Expr then, Expr otherwise) implements Expr {
        public Cond {
            Objects.requireNonNull(test, "test");
            Objects.requireNonNull(then, "then");
            Objects.requireNonNull(otherwise, "otherwise");
        }

        @Override
        public List<Expr> children() {
            return List.of(test, then, otherwise);
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            Expr t = f.apply(test);
            Expr a = f.apply(then);
            return new Cond(t, a, f.apply(otherwise));
        }

        @Override
        public String toString() {
            return "cond(" + test + ", " + then + ", " + otherwise + ")";
        }
    }

    /** Element {@code index} (a long, from 0) of an array. */
    record Elem(Expr array, Expr index) implements Expr {
        public Elem {
            Objects.requireNonNull(array, "array");
            Objects.requireNonNull(index, "index");
        }

        @Override
        public List<Expr> children() {
            return List.of(array, index);
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            Expr a = f.apply(array);
            return new Elem(a, f.apply(index));
        }

        @Override
        public String toString() {
            return "elem(" + array + ", " + index + ")";
        }
    }

    /** String concatenation of {@code parts} (strings, longs, doubles or booleans). */
    record Concat(List<Expr> parts) implements Expr {
        public Concat {
            parts = List.copyOf(parts);
        }

        @Override
        public List<Expr> children() {
            return parts;
        }

        @Override
        public Expr mapChildren(UnaryOperator<Expr> f) {
            return new Concat(parts.stream().map(f).collect(Collectors.toList()));
        }

        @Override
        public String toString() {
            return parts.stream().map(Expr::toString).collect(Collectors.joining(", ", "concat(", ")"));
        }
    }

    /** Operators of {@link Unary}; {@link #dslName()} is the {@link Exprs} factory name. */
    enum UnaryOp {
        NEG("neg"), NOT("not"), LEN("len"), IS_NULL("isNull"), TO_LONG("toLong"), TO_DOUBLE("toDouble");

        private final String dslName;

        UnaryOp(String dslName) {
            this.dslName = dslName;
        }

        /** The {@link Exprs} factory name, e.g. {@code isNull}. */
        public String dslName() {
            return dslName;
        }
    }

    /** Operators of {@link Binary}; {@link #dslName()} is the {@link Exprs} factory name. */
    enum BinaryOp {
        ADD("add"), SUB("sub"), MUL("mul"), DIV("div"), MOD("mod"),
        EQ("eq"), NE("ne"), LT("lt"), LE("le"), GT("gt"), GE("ge"),
        AND("and"), OR("or");

        private final String dslName;

        BinaryOp(String dslName) {
            this.dslName = dslName;
        }

        /** The {@link Exprs} factory name, e.g. {@code add}. */
        public String dslName() {
            return dslName;
        }
    }
}
