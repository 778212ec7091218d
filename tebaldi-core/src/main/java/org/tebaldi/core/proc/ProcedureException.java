package org.tebaldi.core.proc;

/**
 * An error in a stored procedure: at build time (unknown table/column/local, wrong key arity, ...; thrown by
 * {@link Procedure#define}'s {@code build()}, {@link Procedure#of}, {@link Procedure#withBody}) or at run time
 * (thrown by {@link ProcRun#next} or, for an update evaluated at the data server, {@link ExprUpdate#apply}).
 * Messages name the procedure and the statement (pre-order number, see {@link Stmt#flatten}), e.g.
 * {@code "new_order: statement 7 (read stock): array index 15 out of bounds 0..14"}. The TC aborts the
 * transaction as non-retryable.
 */
public class ProcedureException extends RuntimeException {
    /** @param message the full message, procedure and statement included */
    public ProcedureException(String message) {
        super(message);
    }
}
