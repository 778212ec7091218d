package org.tebaldi.bench.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.tebaldi.bench.workload.sql.SqlSession;
import org.tebaldi.bench.workload.sql.SqlTxn;
import org.tebaldi.bench.workload.sql.SqlWorkload;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnAbortedException;

/**
 * One logical client's PostgreSQL session, behind the driver's {@link TxnClient} seam: its own JDBC connection and
 * its own thread (JDBC blocks; the driver's futures do not), set up once with the workload's
 * {@link SqlWorkload#sessionSetup()} statements. {@link #call} runs one attempt of the type's
 * {@link SqlTxn} on that thread — a single statement in autocommit mode, or a {@code BEGIN [READ ONLY]} ...
 * {@code COMMIT} block — and completes the future there.
 *
 * <p>Outcomes: committed — {@link CommitInfo} with the outputs; SQLSTATE 40001 or 40P01 — rolled back and failed
 * with a retryable {@link TxnAbortedException} (the driver backs off and retries, as for Tebaldi aborts; the reason
 * is {@link PgErrors#abortReason}); anything else — rolled back and failed with that exception (counted as an
 * error). A lost connection is also reported to {@code lost}, which ends the run. Interactive
 * {@link #begin} is not offered: every type runs through its SQL implementation (see {@link ProcedureRequests}).
 */
final class JdbcSession implements TxnClient, SqlSession, AutoCloseable {
    private final Connection c;
    private final SqlWorkload workload;
    private final ExecutorService thread;
    private final Consumer<SQLException> lost;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private final long idBase;
    private long attempts;

    /**
     * @param index client index (names the thread, prefixes attempt ids)
     * @param c     the session's connection (owned: closed by {@link #close()})
     * @param lost  told about an exception that lost the connection
     * @throws SQLException if one of the workload's {@link SqlWorkload#sessionSetup()} statements fails (the
     *                      connection is then closed)
     */
    JdbcSession(int index, Connection c, SqlWorkload workload, Consumer<SQLException> lost) throws SQLException {
        this.c = c;
        this.workload = workload;
        this.lost = lost;
        this.idBase = (long) index << 40;
        try (Statement st = c.createStatement()) {
            for (String sql : workload.sessionSetup()) {
                st.execute(sql);
            }
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tebaldi-pg-client-" + index);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public Connection connection() {
        return c;
    }

    @Override
    public PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement ps = statements.get(sql);
        if (ps == null) {
            ps = c.prepareStatement(sql);
            statements.put(sql, ps);
        }
        return ps;
    }

    @Override
    public CompletableFuture<Transaction> begin(String type, Inputs inputs, long priority) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("the PostgreSQL target runs every "
                + "transaction type, interactive ones included, through its SQL implementation; begin() is not offered"));
    }

    @Override
    public CompletableFuture<CommitInfo> call(String type, Inputs inputs, long priority) {
        CompletableFuture<CommitInfo> f = new CompletableFuture<>();
        try {
            thread.execute(() -> {
                try {
                    f.complete(attempt(type, inputs));
                } catch (Throwable e) {
                    f.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            f.completeExceptionally(new IllegalStateException("the session of this client is closed"));
        }
        return f;
    }

    private CommitInfo attempt(String type, Inputs inputs) throws Exception {
        SqlTxn t = workload.txn(type);
        long id = idBase | ++attempts;
        boolean block = !t.singleStatement();
        try {
            if (c.getAutoCommit() == block) {
                c.setAutoCommit(!block);
            }
            if (block && c.isReadOnly() != t.readOnly()) {
                c.setReadOnly(t.readOnly());
            }
            Map<String, Object> out = t.run(this, inputs);
            if (block) {
                c.commit();
            }
            return new CommitInfo(id, out, CompletableFuture.completedFuture(null));
        } catch (SQLException e) {
            rollback(block);
            if (PgErrors.retryable(e)) {
                throw new TxnAbortedException(id, PgErrors.abortReason(e), true);
            }
            if (PgErrors.connectionLost(e)) {
                lost.accept(e);
            }
            throw e;
        } catch (RuntimeException e) {
            rollback(block);
            throw e;
        }
    }

    private void rollback(boolean block) {
        if (!block) {
            return;
        }
        try {
            c.rollback();
        } catch (SQLException e) {
            // the connection is broken; the next attempt reports it
        }
    }

    /**
     * Stops the thread (waiting up to {@code waitMillis} for an attempt in flight, then aborting the connection)
     * and closes the connection.
     */
    void close(long waitMillis) {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(waitMillis, TimeUnit.MILLISECONDS)) {
                c.abort(Runnable::run);
                thread.shutdownNow();
                thread.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            // closing anyway
        }
        try {
            c.close();
        } catch (SQLException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        close(5_000);
    }
}
