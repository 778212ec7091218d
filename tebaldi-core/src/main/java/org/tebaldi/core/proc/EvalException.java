package org.tebaldi.core.proc;

/**
 * A run-time error inside one statement, before the interpreter adds the procedure name and statement number and
 * rethrows it as a {@link ProcedureException}. No stack trace (it is an expected outcome). Package-private.
 */
final class EvalException extends RuntimeException {
    EvalException(String message) {
        super(message, null, false, false);
    }
}
