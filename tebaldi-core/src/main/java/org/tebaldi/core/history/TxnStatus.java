package org.tebaldi.core.history;

/**
 * Outcome of a transaction attempt as far as the merged record knows (dissertation §2.2.3: only committed
 * transactions are nodes of the DSG; reading from an aborted one is an aborted read).
 */
public enum TxnStatus {
    /** No outcome was logged (the attempt never finished, or its coordinator's log is missing). */
    UNFINISHED,
    /** Logged as committed; the initial transaction T0 is always committed. */
    COMMITTED,
    /** Logged as aborted. */
    ABORTED
}
