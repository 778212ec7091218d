package org.tebaldi.core.proc;

/**
 * A procedure compiled to a flat instruction array (locals resolved to slots, {@code if}/{@code for} to jumps),
 * shared by all runs of the procedure. Package-private.
 *
 * @param name     procedure name (message prefix)
 * @param code     instructions; the last is {@link Insn.End}
 * @param slots    number of local slots (named locals plus hidden loop bounds)
 * @param maxArity largest key arity of any access (size of the per-run key buffers)
 */
record Program(String name, Insn[] code, int slots, int maxArity) {
    /** The run-time error {@code e} raised in instruction {@code at}, as a {@link ProcedureException}. */
    ProcedureException error(Insn at, RuntimeException e) {
        String msg = e instanceof EvalException || e instanceof ProcedureException ? e.getMessage() : e.toString();
        ProcedureException p = new ProcedureException(name + ": statement " + at.stmt + " (" + at.label + "): " + msg);
        if (!(e instanceof EvalException)) {
            p.initCause(e);
        }
        return p;
    }
}
