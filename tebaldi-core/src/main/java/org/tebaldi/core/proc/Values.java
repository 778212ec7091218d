package org.tebaldi.core.proc;

import java.util.Arrays;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.ColumnType;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/**
 * Run-time values and operator semantics of the procedure language (documented in {@link Exprs}). Errors are
 * {@link EvalException}s; the interpreter adds the procedure and statement. Package-private.
 */
final class Values {
    /** Largest local array ({@code newArray}). */
    static final int MAX_ARRAY = 1 << 20;

    private Values() {
    }

    /** True if {@code v} is a value of the language. */
    static boolean isValue(Object v) {
        return v == null || v instanceof Long || v instanceof Double || v instanceof String || v instanceof Boolean
                || v instanceof byte[] || v instanceof long[] || v instanceof Object[] || v instanceof Row;
    }

    /** Kind of a value for messages: "long", "double", "string", "boolean", "bytes", "array", "row of t", "null". */
    static String kind(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Long) {
            return "long";
        }
        if (v instanceof Double) {
            return "double";
        }
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof Boolean) {
            return "boolean";
        }
        if (v instanceof byte[]) {
            return "bytes";
        }
        if (v instanceof long[] || v instanceof Object[]) {
            return "array";
        }
        if (v instanceof Row r) {
            return "row of " + r.table().name();
        }
        return v.getClass().getSimpleName();
    }

    /** Readable form of a value (arrays by content). */
    static String show(Object v) {
        if (v instanceof Object[] a) {
            return Arrays.deepToString(a);
        }
        if (v instanceof long[] a) {
            return Arrays.toString(a);
        }
        if (v instanceof byte[] a) {
            return "bytes" + Arrays.toString(a);
        }
        return String.valueOf(v);
    }

    /** A value safe to keep beyond the current statement: local arrays are copied. */
    static Object capture(Object v) {
        return v instanceof Object[] a ? a.clone() : v;
    }

    /** {@link #capture} of a value leaving the run (an update's argument, an output): no placeholder may be in it. */
    static Object captureResolved(Object v) {
        if (Pending.holds(v)) {
            throw Pending.FLUSH;
        }
        return capture(v);
    }

    private static double num(String op, Object v, Object a, Object b) {
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Double d) {
            return d;
        }
        throw operands(op, a, b);
    }

    private static EvalException operands(String op, Object a, Object b) {
        if (a == null || b == null) {
            return new EvalException("null operand in " + op);
        }
        return new EvalException(op + " needs numbers, got " + kind(a) + " and " + kind(b));
    }

    static Object add(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return PrimOps.add(x, y);
        }
        return num("add", a, a, b) + num("add", b, a, b);
    }

    static Object sub(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return PrimOps.sub(x, y);
        }
        return num("sub", a, a, b) - num("sub", b, a, b);
    }

    static Object mul(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return PrimOps.mul(x, y);
        }
        return num("mul", a, a, b) * num("mul", b, a, b);
    }

    static Object div(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return PrimOps.div(x, y);
        }
        double x = num("div", a, a, b);
        double y = num("div", b, a, b);
        if (y == 0.0) {
            throw new EvalException("division by zero");
        }
        return x / y;
    }

    static Object mod(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return PrimOps.mod(x, y);
        }
        double x = num("mod", a, a, b);
        double y = num("mod", b, a, b);
        if (y == 0.0) {
            throw new EvalException("division by zero in mod");
        }
        return x % y;
    }

    static Object neg(Object a) {
        if (a instanceof Long x) {
            return PrimOps.neg(x);
        }
        if (a instanceof Double d) {
            return -d;
        }
        throw new EvalException(a == null ? "null operand in neg" : "neg needs a number, got " + kind(a));
    }

    /** Value equality (see {@link Exprs}). @throws EvalException for two non-null values of different kinds */
    static boolean equal(String op, Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Long x && b instanceof Long y) {
            return x.longValue() == y.longValue();
        }
        if ((a instanceof Long || a instanceof Double) && (b instanceof Long || b instanceof Double)) {
            return ((Number) a).doubleValue() == ((Number) b).doubleValue();
        }
        if (!kind(a).equals(kind(b))) {
            throw new EvalException(op + " cannot compare " + kind(a) + " and " + kind(b));
        }
        if (a instanceof long[] x && b instanceof long[] y) {
            return Arrays.equals(x, y);
        }
        if ((a instanceof long[] || a instanceof Object[]) && (b instanceof long[] || b instanceof Object[])) {
            return Arrays.deepEquals(boxed(a), boxed(b));
        }
        if (a instanceof byte[] x) {
            return Arrays.equals(x, (byte[]) b);
        }
        return a.equals(b);
    }

    private static Object[] boxed(Object array) {
        if (array instanceof long[] l) {
            return Arrays.stream(l).boxed().toArray();
        }
        return (Object[]) array;
    }

    /** Ordering of two numbers or two strings. @throws EvalException otherwise */
    static int compare(String op, Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return x.compareTo(y);
        }
        if ((a instanceof Long || a instanceof Double) && (b instanceof Long || b instanceof Double)) {
            return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
        }
        if (a == null || b == null) {
            throw new EvalException("null operand in " + op);
        }
        throw new EvalException(op + " needs two numbers or two strings, got " + kind(a) + " and " + kind(b));
    }

    /** The boolean {@code v}. @throws EvalException if {@code v} is not a boolean ({@code what} names the use) */
    static boolean bool(String what, Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        throw new EvalException(v == null ? what + " is null" : what + " needs a boolean, got " + kind(v));
    }

    /** {@code v} as a long. @throws EvalException if it is not a long ({@code what} names the use) */
    static long toLongExact(String what, Object v) {
        if (v instanceof Long l) {
            return l;
        }
        throw new EvalException(v == null ? what + " is null" : what + " needs a long, got " + kind(v));
    }

    static Object toLong(Object v) {
        return v instanceof Long ? v : (Object) PrimOps.toLong(v);
    }

    static Object toDouble(Object v) {
        return v instanceof Double ? v : (Object) PrimOps.toDouble(v);
    }

    static Object len(Object a) {
        return PrimOps.len(a);
    }

    /** Checks {@code index} against an array length and returns it as an int. */
    static int index(Object index, int length) {
        return index(toLongExact("array index", index), length);
    }

    /** Checks the long {@code i} against an array length and returns it as an int. */
    static int index(long i, int length) {
        if (i < 0 || i >= length) {
            throw new EvalException(length == 0 ? "array index " + i + " out of bounds (empty array)"
                    : "array index " + i + " out of bounds 0.." + (length - 1));
        }
        return (int) i;
    }

    static Object elem(Object a, Object index) {
        if (a instanceof long[] l) {
            return l[index(index, l.length)];
        }
        if (a instanceof Object[] o) {
            return o[index(index, o.length)];
        }
        throw notAnArray(a);
    }

    /** {@link #elem} with a long index. */
    static Object elem(Object a, long index) {
        if (a instanceof long[] l) {
            return l[index(index, l.length)];
        }
        if (a instanceof Object[] o) {
            return o[index(index, o.length)];
        }
        throw notAnArray(a);
    }

    private static EvalException notAnArray(Object a) {
        return new EvalException(a == null ? "elem of null" : "elem needs an array, got " + kind(a));
    }

    static String concat(Object[] parts) {
        StringBuilder sb = new StringBuilder();
        for (Object p : parts) {
            if (p instanceof String || p instanceof Long || p instanceof Double || p instanceof Boolean) {
                sb.append(p);
            } else {
                throw new EvalException(p == null ? "null operand in concat" : "concat needs strings or numbers, got "
                        + kind(p));
            }
        }
        return sb.toString();
    }

    /** Size of a new local array. */
    static int arraySize(Object v) {
        return arraySize(toLongExact("array size", v));
    }

    /** Size of a new local array, from a long. */
    static int arraySize(long n) {
        if (n < 0 || n > MAX_ARRAY) {
            throw new EvalException("array size " + n + " out of range 0.." + MAX_ARRAY);
        }
        return (int) n;
    }

    /** Key part {@code i} of a key of {@code table}. */
    static long keyPart(Object v, int i, TableSchema table) {
        if (v instanceof Long l) {
            return l;
        }
        throw new EvalException("key part " + i + " of " + table.name() + " is " + (v == null ? "null" : "a " + kind(v))
                + ", expected a long");
    }

    /** {@code v} stored into column {@code i} of {@code table}: longs widen to doubles; others must match. */
    static Object forColumn(TableSchema table, int i, Object v) {
        Column c = table.columns().get(i);
        if (v instanceof Long l && c.type() == ColumnType.DOUBLE) {
            return l.doubleValue();
        }
        if (!c.type().accepts(v)) {
            throw new EvalException("column " + table.name() + "." + c.name() + " is " + c.type() + ", got a "
                    + kind(v));
        }
        return v;
    }
}
