package org.tebaldi.core.proc;

import java.util.function.DoubleBinaryOperator;
import org.tebaldi.core.proc.Kinds.Kind;

/**
 * The operators of {@link Values} on unboxed operands: an operand of static kind LONG or DOUBLE ({@link Kinds})
 * arrives as a {@code long} or {@code double}, any other as the boxed value. Each method returns what its
 * {@link Values} counterpart returns for the boxed operands (unboxed) and throws the same {@link EvalException}
 * with the same message, so typed evaluation ({@link TypedExprs}) is indistinguishable from boxed evaluation.
 * Package-private.
 */
final class PrimOps {
    private PrimOps() {
    }

    static long add(long x, long y) {
        try {
            return Math.addExact(x, y);
        } catch (ArithmeticException e) {
            throw new EvalException("long overflow in add");
        }
    }

    static long sub(long x, long y) {
        try {
            return Math.subtractExact(x, y);
        } catch (ArithmeticException e) {
            throw new EvalException("long overflow in sub");
        }
    }

    static long mul(long x, long y) {
        try {
            return Math.multiplyExact(x, y);
        } catch (ArithmeticException e) {
            throw new EvalException("long overflow in mul");
        }
    }

    static long div(long x, long y) {
        if (y == 0) {
            throw new EvalException("division by zero");
        }
        if (x == Long.MIN_VALUE && y == -1) {
            throw new EvalException("long overflow in div");
        }
        return x / y;
    }

    static long mod(long x, long y) {
        if (y == 0) {
            throw new EvalException("division by zero in mod");
        }
        return x % y;
    }

    static long neg(long x) {
        if (x == Long.MIN_VALUE) {
            throw new EvalException("long overflow in neg");
        }
        return -x;
    }

    /** The double form of {@code add sub mul div mod} (an operand is a double, so the result is). */
    static DoubleBinaryOperator doubleOp(Expr.BinaryOp op) {
        switch (op) {
            case ADD:
                return (x, y) -> x + y;
            case SUB:
                return (x, y) -> x - y;
            case MUL:
                return (x, y) -> x * y;
            case DIV:
                return (x, y) -> {
                    if (y == 0.0) {
                        throw new EvalException("division by zero");
                    }
                    return x / y;
                };
            case MOD:
                return (x, y) -> {
                    if (y == 0.0) {
                        throw new EvalException("division by zero in mod");
                    }
                    return x % y;
                };
            default:
                throw new IllegalStateException(op.name());
        }
    }

    /**
     * A dynamically typed operand {@code v} of arithmetic {@code op} as a double, the other operand being a
     * non-null number of kind {@code other} ({@code vIsLeft}: {@code v} is the left operand, for the message).
     */
    static double num(String op, Object v, Kind other, boolean vIsLeft) {
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Double d) {
            return d;
        }
        if (v == null) {
            throw new EvalException("null operand in " + op);
        }
        String a = vIsLeft ? Values.kind(v) : other.valueKind;
        String b = vIsLeft ? other.valueKind : Values.kind(v);
        throw new EvalException(op + " needs numbers, got " + a + " and " + b);
    }

    /** {@code eq}: a long (left when {@code left}) and a dynamically typed value. */
    static boolean equal(String op, long x, Object v, boolean left) {
        if (v == null) {
            return false;
        }
        if (v instanceof Long y) {
            return x == y;
        }
        if (v instanceof Double y) {
            return (double) x == y;
        }
        throw cannotCompare(op, Kind.LONG, v, left);
    }

    /** {@code eq}: a double (left when {@code left}) and a dynamically typed value. */
    static boolean equal(String op, double x, Object v, boolean left) {
        if (v == null) {
            return false;
        }
        if (v instanceof Long y) {
            return x == (double) y;
        }
        if (v instanceof Double y) {
            return x == y;
        }
        throw cannotCompare(op, Kind.DOUBLE, v, left);
    }

    private static EvalException cannotCompare(String op, Kind typed, Object v, boolean typedLeft) {
        return new EvalException(op + " cannot compare " + (typedLeft ? typed.valueKind + " and " + Values.kind(v)
                : Values.kind(v) + " and " + typed.valueKind));
    }

    /** {@code lt le gt ge}: the sign of (long {@code x} compared with {@code v}), or its negation when not left. */
    static int compare(String op, long x, Object v, boolean left) {
        if (v instanceof Long y) {
            return left ? Long.compare(x, y) : Long.compare(y, x);
        }
        if (v instanceof Double y) {
            return left ? Double.compare(x, y) : Double.compare(y, x);
        }
        throw cannotOrder(op, Kind.LONG, v, left);
    }

    /** {@code lt le gt ge} of a double and a dynamically typed value (see the long form). */
    static int compare(String op, double x, Object v, boolean left) {
        if (v instanceof Long y) {
            return left ? Double.compare(x, y) : Double.compare(y, x);
        }
        if (v instanceof Double y) {
            return left ? Double.compare(x, y) : Double.compare(y, x);
        }
        throw cannotOrder(op, Kind.DOUBLE, v, left);
    }

    private static EvalException cannotOrder(String op, Kind typed, Object v, boolean typedLeft) {
        if (v == null) {
            return new EvalException("null operand in " + op);
        }
        return new EvalException(op + " needs two numbers or two strings, got " + (typedLeft ? typed.valueKind
                + " and " + Values.kind(v) : Values.kind(v) + " and " + typed.valueKind));
    }

    /** {@code toLong} of a double. */
    static long toLong(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d) || d >= 0x1p63 || d < -0x1p63) {
            throw new EvalException("toLong: " + d + " is out of the long range");
        }
        return (long) d;
    }

    /** {@code toLong} of a dynamically typed value. */
    static long toLong(Object v) {
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Double d) {
            return toLong(d.doubleValue());
        }
        if (v instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                throw new EvalException("toLong: '" + s + "' is not a long");
            }
        }
        throw new EvalException(v == null ? "null operand in toLong" : "toLong needs a number or string, got "
                + Values.kind(v));
    }

    /** {@code toDouble} of a dynamically typed value. */
    static double toDouble(Object v) {
        if (v instanceof Long l) {
            return l.doubleValue();
        }
        if (v instanceof Double d) {
            return d;
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                throw new EvalException("toDouble: '" + s + "' is not a number");
            }
        }
        throw new EvalException(v == null ? "null operand in toDouble" : "toDouble needs a number or string, got "
                + Values.kind(v));
    }

    /** {@code len} of a dynamically typed value. */
    static long len(Object a) {
        if (a instanceof long[] l) {
            return l.length;
        }
        if (a instanceof Object[] o) {
            return o.length;
        }
        throw new EvalException(a == null ? "len of null" : "len needs an array, got " + Values.kind(a));
    }

    /**
     * Element {@code i} of {@code a} where a successful result is a long (an input array): {@code a} is a
     * {@code long[]}, or the error of {@link Values#elem} is thrown.
     */
    static long elemLong(Object a, long i) {
        if (a instanceof long[] l) {
            return l[Values.index(i, l.length)];
        }
        return (Long) Values.elem(a, i);
    }

    /** {@link #elemLong} with a dynamically typed index. */
    static long elemLong(Object a, Object i) {
        if (a instanceof long[] l) {
            return l[Values.index(i, l.length)];
        }
        return (Long) Values.elem(a, i);
    }
}
