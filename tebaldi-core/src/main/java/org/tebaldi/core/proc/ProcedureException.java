package org.tebaldi.core.proc;

/** An error in a stored procedure: at build time (unknown table/column/local) or at run time. */
public class ProcedureException extends RuntimeException {
    public ProcedureException(String message) {
        super(message);
    }
}
