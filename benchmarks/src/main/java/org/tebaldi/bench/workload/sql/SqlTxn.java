package org.tebaldi.bench.workload.sql;

import java.sql.SQLException;
import java.util.Map;
import org.tebaldi.core.txn.Inputs;

/**
 * One transaction type of a workload in SQL: runs one attempt with the type's {@link Inputs} (the same values the
 * Tebaldi request carries, in the type's parameter order) on a session. The runner starts the transaction (one
 * statement in autocommit mode when {@link #singleStatement()}, else a transaction block, {@code READ ONLY} when
 * {@link #readOnly()}), and commits or rolls back after {@link #run} returned or threw.
 *
 * <p>Errors: an {@link SQLException} with SQLSTATE 40001 (serialization failure) or 40P01 (deadlock) is a
 * concurrency-control abort, retried by the driver; any other exception is a non-retryable error, e.g. an
 * {@link IllegalStateException} for a read that a serializable execution cannot produce.
 */
public interface SqlTxn {
    /** True if the transaction writes nothing (it then runs as {@code BEGIN READ ONLY}). */
    boolean readOnly();

    /**
     * True if {@link #run} issues exactly one statement (e.g. a stored-function call): it then runs in autocommit
     * mode as its own transaction, one round trip.
     */
    boolean singleStatement();

    /**
     * Runs one attempt.
     *
     * @return the outputs by name (may be empty)
     * @throws SQLException from the server (see the class doc)
     */
    Map<String, Object> run(SqlSession session, Inputs inputs) throws SQLException;

    /** What a transaction does in one attempt (see {@link SqlTxn#run}). */
    @FunctionalInterface
    interface Body {
        /** Runs one attempt; returns the outputs by name. @throws SQLException from the server */
        Map<String, Object> run(SqlSession session, Inputs inputs) throws SQLException;
    }

    /** A transaction of one statement that may write, e.g. a stored-function call (runs in autocommit mode). */
    static SqlTxn procedure(Body body) {
        return of(body, false, true);
    }

    /** A read-only transaction issued statement by statement ({@code BEGIN READ ONLY} ... {@code COMMIT}). */
    static SqlTxn readOnly(Body body) {
        return of(body, true, false);
    }

    /** A writing transaction issued statement by statement ({@code BEGIN} ... {@code COMMIT}). */
    static SqlTxn interactive(Body body) {
        return of(body, false, false);
    }

    /** A transaction with the given {@link #readOnly()} and {@link #singleStatement()}. */
    static SqlTxn of(Body body, boolean readOnly, boolean singleStatement) {
        return new SqlTxn() {
            @Override
            public boolean readOnly() {
                return readOnly;
            }

            @Override
            public boolean singleStatement() {
                return singleStatement;
            }

            @Override
            public Map<String, Object> run(SqlSession session, Inputs inputs) throws SQLException {
                return body.run(session, inputs);
            }
        };
    }
}
