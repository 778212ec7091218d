package org.tebaldi.core.proc;

import org.tebaldi.core.proc.Kinds.Kind;

/**
 * A procedure compiled to a flat instruction array (locals resolved to slots, {@code if}/{@code for} to jumps),
 * shared by all runs of the procedure. Package-private.
 *
 * @param name       procedure name (message prefix)
 * @param code       instructions; the last is {@link Insn.End}
 * @param slots      number of local slots (one per named local)
 * @param prims      number of primitive slots (locals of kind LONG or DOUBLE, and hidden loop bounds)
 * @param primOf     per local slot, its primitive slot, or -1 for a local of another kind
 * @param kinds      per local slot, the local's kind ({@link Kinds})
 * @param maxArity   largest key arity of any access (size of the per-run key buffers)
 * @param workspaces the storage of finished runs, for the next ones ({@link Workspace})
 */
record Program(String name, Insn[] code, int slots, int prims, int[] primOf, Kind[] kinds, int maxArity,
               Workspace.Pool workspaces) {
    /**
     * The run-time error {@code e} raised in instruction {@code at}, as a {@link ProcedureException} (with
     * {@code at} null, an error outside any instruction: an internal one, named by the procedure only).
     */
    ProcedureException error(Insn at, RuntimeException e) {
        if (at == null) {
            ProcedureException p = new ProcedureException(name + ": " + e);
            p.initCause(e);
            return p;
        }
        return error(at.stmt, at.label, e);
    }

    /** The run-time error {@code e} raised in statement {@code stmt} ({@code label}). */
    ProcedureException error(int stmt, String label, RuntimeException e) {
        String msg = e instanceof EvalException || e instanceof ProcedureException ? e.getMessage() : e.toString();
        ProcedureException p = new ProcedureException(name + ": statement " + stmt + " (" + label + "): " + msg);
        if (!(e instanceof EvalException)) {
            p.initCause(e);
        }
        return p;
    }
}
