package org.tebaldi.server.process;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.ControlMessage;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.core.runtime.Role;

/**
 * The runner's end of the control plane ({@link Control}) in process mode, at {@code control0}: an actor whose
 * thread-safe methods return futures completed when the node answers (or failed when it leaves membership). Bulk
 * answers are reassembled from their chunks here.
 */
public final class ControlNode implements Actor {
    /** The address of the runner's control endpoint. */
    public static final NodeId ID = new NodeId(Role.CONTROL, 0);

    private record Command(Runnable action) implements ControlMessage {
    }

    private static final class Pending {
        final NodeId node;
        final CompletableFuture<Object> future = new CompletableFuture<>();
        HistoryLog history;
        Map<Key, Row> rows;

        Pending(NodeId node) {
            this.node = node;
        }
    }

    private final NodeRuntime runtime;
    private final HashMap<Long, Pending> pending = new HashMap<>();
    private NodeContext ctx;
    private long nextReq;

    /** @param runtime the runner's runtime (requests are injected into this actor's mailbox) */
    public ControlNode(NodeRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
    }

    @SuppressWarnings("unchecked")
    private <T> CompletableFuture<T> ask(NodeId node, java.util.function.LongFunction<Object> request) {
        Pending p = new Pending(node);
        runtime.inject(ID, new Command(() -> {
            long id = ++nextReq;
            pending.put(id, p);
            ctx.send(node, request.apply(id));
        }));
        return (CompletableFuture<T>) (CompletableFuture<?>) p.future;
    }

    /** Loads rows into data server {@code ds}; completes with null, or the node's error text. */
    public CompletableFuture<String> load(NodeId ds, Key[] keys, Row[] rows) {
        return ask(ds, id -> new Control.LoadRows(id, keys, rows));
    }

    /** The node's status and counters. */
    public CompletableFuture<Control.Status> status(NodeId node) {
        return ask(node, Control.StatusQuery::new);
    }

    /** A data server's replication counters (all 0 on other nodes). */
    public CompletableFuture<Control.ReplicationCounters> replication(NodeId node) {
        return ask(node, Control.ReplicationQuery::new);
    }

    /** The node's history log (empty for nodes that record none). */
    public CompletableFuture<HistoryLog> history(NodeId node) {
        return ask(node, Control.CollectHistory::new);
    }

    /** A data server's latest committed row per key. */
    public CompletableFuture<Map<Key, Row>> rows(NodeId ds) {
        return ask(ds, Control.CollectRows::new);
    }

    /** Resets the node's message counters (fire and forget). */
    public void resetStats(NodeId node) {
        runtime.inject(ID, new Command(() -> ctx.send(node, new Control.ResetStats())));
    }

    /** Asks the node to stop (fire and forget). */
    public void shutdown(NodeId node) {
        runtime.inject(ID, new Command(() -> ctx.send(node, new Control.Shutdown())));
    }

    @Override
    public void onMessage(NodeId from, Object msg) {
        if (msg instanceof Command c) {
            c.action.run();
        } else if (msg instanceof NodeDown d) {
            for (Iterator<Pending> it = pending.values().iterator(); it.hasNext(); ) {
                Pending p = it.next();
                if (p.node.equals(d.node())) {
                    it.remove();
                    p.future.completeExceptionally(new IllegalStateException(d.node() + " failed (" + d.reason()
                            + ") before answering"));
                }
            }
        } else if (msg instanceof Control.Ack a) {
            complete(a.reqId(), a.error());
        } else if (msg instanceof Control.Status s) {
            complete(s.reqId(), s);
        } else if (msg instanceof Control.ReplicationCounters c) {
            complete(c.reqId(), c);
        } else if (msg instanceof Control.HistoryChunk h) {
            Pending p = pending.get(h.reqId());
            if (p != null) {
                if (p.history == null) {
                    p.history = new HistoryLog();
                }
                h.reads().forEach(r -> p.history.read(r.reader(), r.key(), r.writer(), r.writeSeq()));
                h.writes().forEach(w -> p.history.write(w.writer(), w.key(), w.writeSeq()));
                h.outcomes().forEach(o -> p.history.outcome(o.txn(), o.committed(), o.type()));
                h.versionOrders().forEach(p.history::versionOrder);
                if (h.last()) {
                    complete(h.reqId(), p.history);
                }
            }
        } else if (msg instanceof Control.RowsChunk r) {
            Pending p = pending.get(r.reqId());
            if (p != null) {
                if (p.rows == null) {
                    p.rows = new HashMap<>();
                }
                for (int i = 0; i < r.keys().length; i++) {
                    p.rows.put(r.keys()[i], r.rows()[i]);
                }
                if (r.last()) {
                    complete(r.reqId(), p.rows);
                }
            }
        }
    }

    private void complete(long reqId, Object value) {
        Pending p = pending.remove(reqId);
        if (p != null) {
            p.future.complete(value);
        }
    }
}
