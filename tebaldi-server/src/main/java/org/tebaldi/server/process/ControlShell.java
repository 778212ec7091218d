package org.tebaldi.server.process;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * Wraps a node's actor in process mode and answers the control plane ({@link Control.Request}s) on the node's own
 * thread — so loading rows into a data server, or reading its history and store, is as safe as any message — and
 * passes everything else to the node. Monitor and configurator processes (later issues) run the shell alone.
 * Bulk answers go out in chunks of {@value #CHUNK} records.
 */
public final class ControlShell implements Actor {
    /** Records per history or rows chunk. */
    static final int CHUNK = 20_000;

    private final Actor inner;
    private final HostServices host;
    private NodeContext ctx;

    /** @param inner the node (a DataServer, TransactionCoordinator, service actor), or null for none */
    public ControlShell(Actor inner, HostServices host) {
        this.inner = inner;
        this.host = host;
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
        if (inner != null) {
            inner.onStart(ctx);
        }
    }

    @Override
    public void onMessage(NodeId from, Object msg) {
        if (!(msg instanceof Control.Request r)) {
            if (inner != null) {
                inner.onMessage(from, msg);
            }
            return;
        }
        if (r instanceof Control.LoadRows l) {
            ctx.send(from, new Control.Ack(l.reqId(), load(l)));
        } else if (r instanceof Control.ResetStats) {
            host.runtime().stats().reset();
        } else if (r instanceof Control.StatusQuery q) {
            List<Throwable> f = host.runtime().failures();
            ctx.send(from, new Control.Status(q.reqId(), f.size(), f.isEmpty() ? null : f.get(0).toString(),
                    host.runtime().stats().snapshot(), host.dropped(), host.treeVersion(), live()));
        } else if (r instanceof Control.ReplicationQuery q) {
            ctx.send(from, replication(q.reqId()));
        } else if (r instanceof Control.CollectHistory c) {
            sendHistory(from, c.reqId());
        } else if (r instanceof Control.CollectRows c) {
            sendRows(from, c.reqId());
        } else if (r instanceof Control.Shutdown) {
            host.requestShutdown("the runner asked " + ctx.self() + " to stop");
        }
    }

    /** Transactions live at the node this shell wraps (0 unless it is a coordinator or a data server). */
    private int live() {
        if (inner instanceof TransactionCoordinator tc) {
            return tc.liveTransactions();
        }
        return inner instanceof DataServer ds ? ds.liveTransactions() : 0;
    }

    private Control.ReplicationCounters replication(long reqId) {
        if (inner instanceof org.tebaldi.server.tc.TransactionCoordinator tc) {
            long[] r = tc.replicaReadCounts();
            return new Control.ReplicationCounters(reqId, 0, 0, 0, 0, 0, 0, r[0], r[1], 0, 0);
        }
        if (!(inner instanceof DataServer ds)) {
            return new Control.ReplicationCounters(reqId, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        var repl = ds.replication();
        var log = repl.map(org.tebaldi.server.ds.DsReplication::replicatedLog).orElse(null);
        var backups = repl.map(org.tebaldi.server.ds.DsReplication::backupReplicas).orElse(null);
        var views = repl.map(org.tebaldi.server.ds.DsReplication::replicaViews).orElse(null);
        long applied = backups == null ? 0 : backups.appliedRecords();
        long[] lag = views == null ? new long[2] : views.lag();
        return log == null ? new Control.ReplicationCounters(reqId, 0, 0, 0, 0, applied, 0, 0, 0, lag[0], lag[1])
                : new Control.ReplicationCounters(reqId, log.shippedRecords(), log.acknowledgedWrites(),
                log.waitedWrites(), log.resent(), applied, log.innerHostWaits(), 0, 0, lag[0], lag[1]);
    }

    private String load(Control.LoadRows l) {
        if (!(inner instanceof DataServer ds)) {
            return ctx.self() + " is not a data server";
        }
        try {
            for (int i = 0; i < l.keys().length; i++) {
                ds.load(l.keys()[i], l.rows()[i]);
            }
            return null;
        } catch (RuntimeException e) {
            return "loading into " + ctx.self() + " failed: " + e;
        }
    }

    private void sendHistory(NodeId to, long reqId) {
        HistoryLog log = inner instanceof DataServer ds ? ds.history()
                : inner instanceof TransactionCoordinator tc ? tc.history() : null;
        if (log == null) {
            ctx.send(to, new Control.HistoryChunk(reqId, true, List.of(), List.of(), List.of(), Map.of()));
            return;
        }
        List<HistoryLog.Read> reads = log.reads();
        List<HistoryLog.Write> writes = log.writes();
        if (!log.copies().isEmpty()) { // a copy is a write again (HistoryLog.copy); the check after the run merges it
            writes = new ArrayList<>(writes);
            writes.addAll(log.copies());
        }
        List<HistoryLog.Outcome> outcomes = log.outcomes();
        List<Map.Entry<Key, long[]>> orders = new ArrayList<>(log.versionOrders().entrySet());
        int r = 0;
        int w = 0;
        int o = 0;
        int v = 0;
        do {
            int room = CHUNK;
            int nr = Math.min(room, reads.size() - r);
            room -= nr;
            int nw = Math.min(room, writes.size() - w);
            room -= nw;
            int no = Math.min(room, outcomes.size() - o);
            room -= no;
            int nv = Math.min(room, orders.size() - v);
            Map<Key, long[]> part = new LinkedHashMap<>();
            for (Map.Entry<Key, long[]> e : orders.subList(v, v + nv)) {
                part.put(e.getKey(), e.getValue());
            }
            r += nr;
            w += nw;
            o += no;
            v += nv;
            boolean last = r == reads.size() && w == writes.size() && o == outcomes.size() && v == orders.size();
            ctx.send(to, new Control.HistoryChunk(reqId, last, List.copyOf(reads.subList(r - nr, r)),
                    List.copyOf(writes.subList(w - nw, w)), List.copyOf(outcomes.subList(o - no, o)), part));
            if (last) {
                return;
            }
        } while (true);
    }

    private void sendRows(NodeId to, long reqId) {
        List<Key> keys = new ArrayList<>();
        List<Row> rows = new ArrayList<>();
        if (inner instanceof DataServer ds) {
            ds.store().forEach((key, chain) -> {
                Version latest = chain.latestCommitted();
                if (latest != null && !latest.deleted()) {
                    keys.add(key);
                    rows.add(latest.value());
                }
            });
        }
        int i = 0;
        do {
            int n = Math.min(CHUNK, keys.size() - i);
            boolean last = i + n == keys.size();
            ctx.send(to, new Control.RowsChunk(reqId, last, keys.subList(i, i + n).toArray(new Key[0]),
                    rows.subList(i, i + n).toArray(new Row[0])));
            i += n;
            if (last) {
                return;
            }
        } while (true);
    }
}
