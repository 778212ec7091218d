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
}
