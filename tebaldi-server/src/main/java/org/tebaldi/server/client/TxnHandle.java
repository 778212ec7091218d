package org.tebaldi.server.client;

import java.util.HashMap;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.RowUpdate;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.server.msg.AbortTxn;
import org.tebaldi.server.msg.CommitTxn;
import org.tebaldi.server.msg.TxnEnded;
import org.tebaldi.server.msg.TxnOp;
import org.tebaldi.server.msg.TxnOps;

/** An interactive transaction of a {@link ClientNode}; its state is touched only on the node's thread. */
final class TxnHandle implements Transaction {
    private final ClientNode node;
    private final long id;
    private final HashMap<Integer, CompletableFuture<Row>> ops = new HashMap<>();
    private int nextOp;
    private CompletableFuture<CommitInfo> commit;
    private CompletableFuture<Void> abort;
    private TxnAbortedException ended;
    /** Answers received so far (a request timer that sees it unchanged gave up). */
    private int answers;

    TxnHandle(ClientNode node, long id) {
        this.node = node;
        this.id = id;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public CompletableFuture<Row> execute(Op op) {
        CompletableFuture<Row> f = new CompletableFuture<>();
        node.exec(() -> {
            if (ended != null || commit != null || abort != null) {
                f.completeExceptionally(ended != null ? ended
                        : new IllegalStateException("transaction " + id + " is committing or aborting"));
                return;
            }
            int opId = nextOp++;
            ops.put(opId, f);
            node.send(new TxnOp(id, opId, op));
            watch();
        });
        return f;
    }

    /**
     * Sends the operations together (one {@link TxnOps}); they execute in order, one message per data server.
     *
     * @return the result rows in order; fails like {@link #execute}
     */
    @Override
    public CompletableFuture<java.util.List<Row>> executeAll(java.util.List<Op> batch) {
        if (batch.isEmpty()) {
            return CompletableFuture.completedFuture(java.util.List.of());
        }
        java.util.List<CompletableFuture<Row>> fs = new java.util.ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            fs.add(new CompletableFuture<>());
        }
        node.exec(() -> {
            if (ended != null || commit != null || abort != null) {
                RuntimeException e = ended != null ? ended
                        : new IllegalStateException("transaction " + id + " is committing or aborting");
                fs.forEach(f -> f.completeExceptionally(e));
                return;
            }
            int first = nextOp;
            nextOp += batch.size();
            for (int i = 0; i < fs.size(); i++) {
                ops.put(first + i, fs.get(i));
            }
            node.send(new TxnOps(id, first, batch.toArray(new Op[0])));
            watch();
        });
        return CompletableFuture.allOf(fs.toArray(new CompletableFuture[0]))
                .thenApply(x -> fs.stream().map(CompletableFuture::join).toList());
    }

    @Override
    public CompletableFuture<java.util.List<Row>> readAll(String table, java.util.List<long[]> keys) {
        java.util.List<Op> batch = new java.util.ArrayList<>(keys.size());
        try {
            for (long[] k : keys) {
                batch.add(Op.read(key(table, k)));
            }
        } catch (IllegalArgumentException e) {
            return failed(e);
        }
        return executeAll(batch);
    }

    private Key key(String table, long[] key) {
        return Key.of(node.db().catalog().table(table), key);
    }

    private <T> CompletableFuture<T> failed(RuntimeException e) {
        CompletableFuture<T> f = new CompletableFuture<>();
        f.completeExceptionally(e);
        return f;
    }

    @Override
    public CompletableFuture<Row> read(String table, long... key) {
        try {
            return execute(Op.read(key(table, key)));
        } catch (IllegalArgumentException e) {
            return failed(e);
        }
    }

    @Override
    public CompletableFuture<Row> readForUpdate(String table, long... key) {
        try {
            return execute(Op.readForUpdate(key(table, key)));
        } catch (IllegalArgumentException e) {
            return failed(e);
        }
    }

    @Override
    public CompletableFuture<Void> write(Row row, long... key) {
        try {
            return execute(Op.write(Key.of(row.table(), key), row)).thenApply(r -> null);
        } catch (IllegalArgumentException e) {
            return failed(e);
        }
    }

    @Override
    public CompletableFuture<Row> update(String table, RowUpdate update, long... key) {
        try {
            return execute(Op.update(key(table, key), update));
        } catch (IllegalArgumentException e) {
            return failed(e);
        }
    }

    @Override
    public CompletableFuture<Void> delete(String table, long... key) {
        try {
            return execute(Op.delete(key(table, key))).thenApply(r -> null);
        } catch (IllegalArgumentException e) {
            return failed(e);
        }
    }

    @Override
    public CompletableFuture<CommitInfo> commit() {
        CompletableFuture<CommitInfo> f = new CompletableFuture<>();
        node.exec(() -> {
            if (ended != null) {
                f.completeExceptionally(ended);
            } else if (commit != null || abort != null) {
                f.completeExceptionally(new IllegalStateException("transaction " + id + " already committing or aborting"));
            } else {
                commit = f;
                node.send(new CommitTxn(id));
                watch();
            }
        });
        return f;
    }

    @Override
    public CompletableFuture<Void> abort() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        node.exec(() -> {
            if (ended != null) {
                f.complete(null);
            } else if (abort != null || commit != null) {
                f.completeExceptionally(new IllegalStateException("transaction " + id + " already committing or aborting"));
            } else {
                abort = f;
                node.send(new AbortTxn(id));
                watch();
            }
        });
        return f;
    }

    /**
     * The coordinator failed: fail everything pending with a non-retryable error; of unknown outcome if the commit
     * was requested (the coordinator may have decided it), else a plain abort (it cannot have committed).
     */
    void failed(String why) {
        end(commit != null ? TxnAbortedException.outcomeUnknown(id, why) : new TxnAbortedException(id, why, false));
    }

    /**
     * With a request timeout: if no answer arrives before it passes and something is still pending, the
     * transaction ends here — of unknown outcome if its commit was asked, else aborted retryably (an abort goes to
     * the coordinator).
     */
    private void watch() {
        int seen = answers;
        node.expire(() -> {
            if (ended != null || answers != seen || ops.isEmpty() && commit == null && abort == null) {
                return;
            }
            node.forget(id);
            if (commit == null) {
                node.send(new AbortTxn(id));
                end(new TxnAbortedException(id, node.noAnswer(), true));
            } else {
                end(TxnAbortedException.outcomeUnknown(id, node.noAnswer() + " to the commit; whether it committed "
                        + "is unknown"));
            }
        });
    }

    void opDone(int opId, Row row) {
        answers++;
        CompletableFuture<Row> f = ops.remove(opId);
        if (f != null) {
            f.complete(row);
        }
    }

    void ended(TxnEnded e) {
        answers++;
        if (e.committed()) {
            if (commit != null) {
                commit.complete(new CommitInfo(id, e.outputs(), node.durableFuture(e)));
            }
            return;
        }
        end(new TxnAbortedException(id, e.reason(), e.retryable()));
    }

    private void end(TxnAbortedException why) {
        ended = why;
        ops.values().forEach(f -> f.completeExceptionally(ended));
        ops.clear();
        if (commit != null) {
            commit.completeExceptionally(ended);
        }
        if (abort != null) {
            abort.complete(null);
        }
    }
}
