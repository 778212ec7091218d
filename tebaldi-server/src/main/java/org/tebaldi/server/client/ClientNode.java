package org.tebaldi.server.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.server.msg.AbortTxn;
import org.tebaldi.server.msg.BeginTxn;
import org.tebaldi.server.msg.CallProc;
import org.tebaldi.server.msg.Durable;
import org.tebaldi.server.msg.OpDone;
import org.tebaldi.server.msg.OpsDone;
import org.tebaldi.server.msg.TxnBegun;
import org.tebaldi.server.msg.TxnEnded;

/**
 * A client endpoint (docs/architecture.md, "Transactions"): an actor that talks to one transaction coordinator on behalf of any number
 * of logical clients and exposes the future-based {@link TxnClient} API. Futures complete on this actor's
 * thread, so a closed-loop client's continuation issues its next call without a thread hop; calls from other
 * threads are injected into the actor's mailbox. Never blocks.
 */
public final class ClientNode implements Actor {
    private final NodeId self;
    private volatile NodeId tc;
    private volatile UnaryOperator<NodeId> failover = dead -> null;
    private String tcDown;
    private final Database db;
    private final NodeRuntime runtime;
    final HashMap<Long, CompletableFuture<Transaction>> begins = new HashMap<>();
    final HashMap<Long, CompletableFuture<CommitInfo>> calls = new HashMap<>();
    final HashMap<Long, TxnHandle> open = new HashMap<>();
    /** Durable notifications still to come (dissertation §4.5.4), by transaction id. */
    private final HashMap<Long, CompletableFuture<Void>> durables = new HashMap<>();
    NodeContext ctx;
    private volatile Thread running;
    private long nextReq;
    private long requestTimeoutMicros;
    private final TxnClient api = new Api();

    private record Command(Runnable action) {
    }

    public ClientNode(NodeId self, NodeId tc, Database db, NodeRuntime runtime) {
        this.self = self;
        this.tc = tc;
        this.db = db;
        this.runtime = runtime;
    }

    /** The client API; usable from any thread once the node has been spawned. */
    public TxnClient api() {
        return api;
    }

    /** The coordinator this endpoint currently talks to. */
    public NodeId tc() {
        return tc;
    }

    /**
     * How to rebind when the coordinator fails (process mode): {@code next} gets the failed coordinator and returns
     * a live one, or null to stay unbound (later calls then fail at once). Set before the node is spawned.
     */
    public void setFailover(UnaryOperator<NodeId> next) {
        this.failover = next;
    }

    /**
     * Gives up on a request that has had no answer for {@code micros} µs (a message lost with a dropped connection;
     * 0, the default: wait forever): a begin fails retryably (nothing can have committed; the coordinator's own
     * transaction timeout ends its side), a stored-procedure call or a commit fails with
     * {@link TxnAbortedException#outcomeUnknown()}, an operation fails its transaction retryably (an abort is sent
     * to the coordinator). Set before the node is spawned.
     *
     * @throws IllegalArgumentException if negative
     */
    public void setRequestTimeout(long micros) {
        if (micros < 0) {
            throw new IllegalArgumentException("request timeout must not be negative, got " + micros);
        }
        this.requestTimeoutMicros = micros;
    }

    /** With a request timeout, runs {@code check} on this node once it passed. */
    void expire(Runnable check) {
        if (requestTimeoutMicros > 0) {
            ctx.schedule(requestTimeoutMicros, check);
        }
    }

    /** Why a request timed out. */
    String noAnswer() {
        return "no answer from coordinator " + tc + " within " + requestTimeoutMicros / 1000.0 + " ms";
    }

    Database db() {
        return db;
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void onMessage(NodeId from, Object msg) {
        running = Thread.currentThread();
        try {
            if (msg instanceof Command c) {
                c.action.run();
            } else if (msg instanceof NodeDown d) {
                if (d.node().equals(tc)) {
                    coordinatorFailed(d);
                }
            } else if (msg instanceof OpsDone d) {
                TxnHandle h = open.get(d.txnId());
                if (h != null) {
                    for (int i = 0; i < d.rows().length; i++) {
                        h.opDone(d.firstOpId() + i, d.rows()[i]);
                    }
                }
            } else if (msg instanceof OpDone d) {
                TxnHandle h = open.get(d.txnId());
                if (h != null) {
                    h.opDone(d.opId(), d.row());
                }
            } else if (msg instanceof TxnBegun b) {
                CompletableFuture<Transaction> f = begins.remove(b.reqId());
                if (f != null) {
                    TxnHandle h = new TxnHandle(this, b.txnId());
                    open.put(b.txnId(), h);
                    f.complete(h);
                } else {
                    ctx.send(from, new AbortTxn(b.txnId())); // its begin timed out here: end it there too
                }
            } else if (msg instanceof TxnEnded e) {
                ended(e);
            } else if (msg instanceof Durable.Txns d) {
                durable(d);
                if (d.seq() > 0) {
                    ctx.send(from, new Durable.Ack(d.seq())); // a repeated copy too
                }
            }
        } finally {
            running = null;
        }
    }

    private void ended(TxnEnded e) {
        CompletableFuture<CommitInfo> call = e.reqId() == 0 ? null : calls.remove(e.reqId());
        if (call != null) {
            if (e.committed()) {
                call.complete(new CommitInfo(e.txnId(), e.outputs(), durableFuture(e)));
            } else {
                call.completeExceptionally(new TxnAbortedException(e.txnId(), e.reason(), e.retryable()));
            }
            return;
        }
        CompletableFuture<Transaction> begin = e.reqId() == 0 ? null : begins.remove(e.reqId());
        if (begin != null) {
            begin.completeExceptionally(new TxnAbortedException(e.txnId(), e.reason(), e.retryable()));
            return;
        }
        TxnHandle h = open.remove(e.txnId());
        if (h != null) {
            h.ended(e);
        }
    }

    /** The durable notification of a committed transaction: done already, or registered for a later message. */
    CompletableFuture<Void> durableFuture(TxnEnded e) {
        if (e.durable()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> f = new CompletableFuture<>();
        durables.put(e.txnId(), f);
        return f;
    }

    private void durable(Durable.Txns d) {
        for (long id : d.txnIds()) {
            CompletableFuture<Void> f = durables.remove(id);
            if (f != null) {
                if (d.lost()) {
                    f.completeExceptionally(new TxnAbortedException(id, d.reason(), false));
                } else {
                    f.complete(null);
                }
            }
        }
    }

    /** Committed transactions whose durable notification has not arrived yet. */
    public int awaitingDurability() {
        return durables.size();
    }

    /**
     * The coordinator died: every transaction in flight through it fails with a non-retryable error saying so —
     * {@link TxnAbortedException#outcomeUnknown()} for those that may have committed (stored procedures, commits
     * requested, durable notifications still to come: the coordinator's decision is lost with it) — then the
     * endpoint rebinds to the coordinator its failover picks.
     */
    private void coordinatorFailed(NodeDown d) {
        NodeId dead = tc;
        String why = "coordinator " + dead + " failed (" + d.reason() + "); the transaction's outcome is unknown";
        for (CompletableFuture<Transaction> f : new ArrayList<>(begins.values())) {
            f.completeExceptionally(new TxnAbortedException(0, "coordinator " + dead + " failed (" + d.reason()
                    + ") before the transaction began", false));
        }
        begins.clear();
        for (CompletableFuture<CommitInfo> f : new ArrayList<>(calls.values())) {
            f.completeExceptionally(TxnAbortedException.outcomeUnknown(0, why));
        }
        calls.clear();
        for (TxnHandle h : new ArrayList<>(open.values())) {
            h.failed(why);
        }
        open.clear();
        for (CompletableFuture<Void> f : new ArrayList<>(durables.values())) {
            f.completeExceptionally(TxnAbortedException.outcomeUnknown(0, "coordinator " + dead + " failed before the commit "
                    + "was durable; whether it survives is unknown"));
        }
        durables.clear();
        NodeId next = failover.apply(dead);
        if (next != null) {
            tc = next;
            tcDown = null;
        } else {
            tcDown = "coordinator " + dead + " failed (" + d.reason() + ") and no other coordinator is available";
        }
    }

    /** Null if the coordinator is usable, else why not. */
    String unavailable() {
        return tcDown;
    }

    /** Runs {@code action} on this actor's thread: now if already there, else through the mailbox. */
    void exec(Runnable action) {
        if (Thread.currentThread() == running) {
            action.run();
        } else {
            runtime.inject(self, new Command(action));
        }
    }

    void send(Object msg) {
        ctx.send(tc, msg);
    }

    /** An interactive transaction gave up waiting (request timeout): it leaves the open set. */
    void forget(long txnId) {
        open.remove(txnId);
    }

    private final class Api implements TxnClient {
        @Override
        public CompletableFuture<Transaction> begin(String type, Inputs inputs, long priority) {
            return request(type, begins, (r, typeId) -> new BeginTxn(r, typeId, inputs, priority),
                    () -> new TxnAbortedException(0, noAnswer() + " to a begin", true));
        }

        @Override
        public CompletableFuture<CommitInfo> call(String type, Inputs inputs, long priority) {
            return request(type, calls, (r, typeId) -> new CallProc(r, typeId, inputs, priority),
                    () -> TxnAbortedException.outcomeUnknown(0, noAnswer() + " to a call; "
                            + "whether it committed is unknown"));
        }

        /**
         * Sends the request {@code message} builds (from the request id and the type's id) to the coordinator on
         * this node's thread, its future kept in {@code pending} under the request id until the answer or the
         * request timeout (then failed with {@code timedOut}). Fails at once for an unknown type
         * ({@link IllegalArgumentException}) or while the coordinator is down ({@link TxnAbortedException}).
         */
        private <T> CompletableFuture<T> request(String type, HashMap<Long, CompletableFuture<T>> pending,
                java.util.function.BiFunction<Long, Integer, Object> message,
                java.util.function.Supplier<TxnAbortedException> timedOut) {
            CompletableFuture<T> f = new CompletableFuture<>();
            int typeId;
            try {
                typeId = db.type(type).id();
            } catch (IllegalArgumentException e) {
                f.completeExceptionally(e);
                return f;
            }
            exec(() -> {
                if (tcDown != null) {
                    f.completeExceptionally(new TxnAbortedException(0, tcDown, false));
                    return;
                }
                long r = ++nextReq;
                pending.put(r, f);
                send(message.apply(r, typeId));
                expire(() -> {
                    CompletableFuture<T> g = pending.remove(r);
                    if (g != null) {
                        g.completeExceptionally(timedOut.get());
                    }
                });
            });
            return f;
        }
    }
}
