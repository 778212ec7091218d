package org.tebaldi.core.proc;

/**
 * A compiled expression: evaluates against a {@link Frame}. Built once per procedure by {@link ExprCompiler};
 * stateless and shared by all runs. Errors are {@link EvalException}s; a value still in flight throws
 * {@link Pending#FLUSH}. The nested interfaces evaluate an expression of a static {@link Kinds.Kind} without
 * boxing ({@link TypedExprs}): same value, same errors, in the same order, as the boxed evaluation. Package-private.
 */
@FunctionalInterface
interface Ev {
    Object eval(Frame f);

    /** An expression of kind LONG (or a long context: a key part, an index, a loop bound), unboxed. */
    @FunctionalInterface
    interface OfLong {
        long eval(Frame f);
    }

    /** An expression of kind DOUBLE (or LONG widened, inside double arithmetic), unboxed. */
    @FunctionalInterface
    interface OfDouble {
        double eval(Frame f);
    }

    /** An expression of kind BOOL, or a condition (a statement's, {@code cond}'s test, an operand of and/or/not). */
    @FunctionalInterface
    interface OfBool {
        boolean eval(Frame f);
    }
}
