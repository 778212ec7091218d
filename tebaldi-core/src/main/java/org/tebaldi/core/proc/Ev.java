package org.tebaldi.core.proc;

/**
 * A compiled expression: evaluates against a {@link Frame}. Built once per procedure by {@link ExprCompiler};
 * stateless and shared by all runs. Errors are {@link EvalException}s. Package-private.
 */
@FunctionalInterface
interface Ev {
    Object eval(Frame f);
}
