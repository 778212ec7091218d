package org.tebaldi.server.ds;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.server.durability.LogContents;
import org.tebaldi.server.durability.LogRecord;
import org.tebaldi.server.msg.Recovery;

/**
 * A data server's side of recovery (dissertation §4.5.4). Step 1 ({@link Recovery.Begin}): drop every transaction
 * and the whole in-memory state, read the store — the data rows (the initial load and what earlier recoveries
 * folded in) become the new store, each as a committed version re-based beneath the root — and summarize the logged
 * transactions for the coordinator. Step 2 ({@link Recovery.Decide}): for each key, the latest surviving version by
 * order key among the data row and the operation logs of the kept transactions wins; winners are written back to
 * the data rows with a decision record, synced. Step 3: the CC module is rebuilt from scratch over the re-based
 * versions, as if a virtual recovery transaction beneath the root had written them. {@link Recovery.Finish} then
 * deletes the logs and restarts the epochs above every epoch the logs mention. The recovery coordinator sends a
 * request again when its answer is overdue (a dropped connection); a repeated request of a step already taken is
 * answered again without taking the step twice, one still under way answers by itself.
 */
final class DsRecovery implements DsFeature {
    private static final Logger LOG = LoggerFactory.getLogger(DsRecovery.class);

    private final DataServer ds;
    private final DsDurability dur;
    private LogContents contents;
    private long round = -1;
    private long decidedBase;
    private NodeId coordinator;
    private long rows;
    private long startedNanos;
    /**
     * Rounds whose decision this server took (and wrote: applied) and whose finish it began (and wrote: finished),
     * to answer a repeated request without taking the step again (-1: none).
     */
    private long decidedRound = -1;
    private long appliedRound = -1;
    private int appliedKept;
    private int appliedDropped;
    private long finishingRound = -1;
    private long finishedRound = -1;

    DsRecovery(DataServer ds, DsDurability dur) {
        this.ds = ds;
        this.dur = dur;
    }

    /** The server started: if it restarted from its store, it asks coordinator 0 for a recovery round. */
    @Override
    public void start() {
        if (dur.restarted()) {
            request();
        }
    }

    private void request() {
        dur.suspend();
        LOG.info("ds{}: restarted from its store; asking tc0 for a recovery round", ds.dsIndex());
        ask();
    }

    /** Asks again every 500 ms until a round begins (coordinator 0 may not be up or reachable yet). */
    private void ask() {
        if (coordinator == null) {
            ds.send(NodeId.tc(0), new Recovery.Request(ds.dsIndex()));
            ds.schedule(500_000, this::ask);
        }
    }

    /**
     * Durability and recovery messages, and requests refused while this server recovers (they get a retryable
     * failure; commits and aborts are dropped, recovery decides from the log); true if handled.
     */
    @Override
    public boolean intercept(NodeId from, Object msg) {
        if (msg instanceof org.tebaldi.server.durability.LogStore.Callback c) {
            c.task().run();
            return true;
        }
        if (msg instanceof org.tebaldi.server.msg.Durable.Persisted p) {
            dur.peerPersisted(p.epoch());
            return true;
        }
        if (recoveryMessage(from, msg)) {
            return true;
        }
        if (!dur.recovering) {
            return false;
        }
        String why = "data server ds" + ds.dsIndex() + " is recovering from its log";
        if (msg instanceof org.tebaldi.server.msg.ExecRequest r) {
            ds.send(from, new org.tebaldi.server.msg.ExecReply(r.header().txnId(), r.opId(), false, null, why, true,
                    null, null));
        } else if (msg instanceof org.tebaldi.server.msg.ExecBatch b) {
            ds.send(from, new org.tebaldi.server.msg.ExecReplies(new org.tebaldi.server.msg.ExecReply[]{
                new org.tebaldi.server.msg.ExecReply(b.header().txnId(), b.opIds()[0], false, null, why, true, null,
                        null)}));
        } else if (msg instanceof org.tebaldi.server.msg.ValidateRequest r) {
            ds.send(from, new org.tebaldi.server.msg.ValidateReply(r.txnId(), false, why, true, null, null));
        } else {
            return msg instanceof org.tebaldi.server.msg.CommitRequest
                    || msg instanceof org.tebaldi.server.msg.AbortRequest;
        }
        return true;
    }

    /** Handles a recovery message; false if {@code msg} is not one. */
    private boolean recoveryMessage(NodeId from, Object msg) {
        if (msg instanceof Recovery.Begin b) {
            begin(from, b.round());
        } else if (msg instanceof Recovery.Decide d) {
            decide(from, d);
        } else if (msg instanceof Recovery.Finish f) {
            finish(from, f.round());
        } else {
            return false;
        }
        return true;
    }

    private void begin(NodeId from, long r) {
        if (r == round && dur.recovering) {
            if (contents != null) {
                ds.send(from, summary(contents)); // a repeated begin: the summary may have been lost
            }
            return;
        }
        coordinator = from;
        round = r;
        contents = null;
        rows = 0;
        startedNanos = System.nanoTime();
        dur.suspend();
        dropEverything(ds);
        long myRound = r;
        dur.store.read(chunk -> {
            if (round != myRound) {
                return;
            }
            for (LogRecord.Data d : chunk) {
                Version v = new Version(d.writer(), -1, 0, d.row(), true);
                v.setOrderKey(d.orderKey());
                v.rebase();
                ds.store().restore(d.key(), v);
                ds.txns().versionAdded();
            }
            rows += chunk.size();
        }, c -> {
            if (round != myRound) {
                return;
            }
            contents = c;
            ds.send(coordinator, summary(c));
            LOG.info("ds{}: recovery round {}: read {} rows and the logs of {} transactions in {} ms (persisted "
                    + "epoch {})", ds.dsIndex(), myRound, rows, c.txns.size(), millis(), c.persisted);
        });
    }

    private long millis() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    private Recovery.Summary summary(LogContents c) {
        int n = c.txns.size();
        long[] ids = new long[n];
        byte[] flags = new byte[n];
        int[] parts = new int[n];
        long[] pe = new long[n];
        long[] ce = new long[n];
        int i = 0;
        for (LogContents.TxnLog t : c.txns.values()) {
            ids[i] = t.txn;
            byte f = 0;
            if (t.precommit != null) {
                f |= Recovery.PRECOMMIT;
                if (t.precommit.participants() > 0 && t.ops.size() >= t.precommit.ops()) {
                    f |= Recovery.WRITES;
                }
                parts[i] = t.precommit.participants();
                pe[i] = t.precommit.epoch();
            } else {
                pe[i] = -1;
            }
            if (t.aborted) {
                f |= Recovery.ABORTED;
            }
            flags[i] = f;
            ce[i] = t.commit == null ? -1 : t.commit.globalEpoch();
            i++;
        }
        long pending = c.pendingDecision == null || c.pendingDecision.round() < 0 ? -1 : c.pendingDecision.round();
        return new Recovery.Summary(round, ds.dsIndex(), c.persisted, c.maxEpoch(), pending, c.round, ids, flags,
                parts, pe, ce);
    }

    private void decide(NodeId from, Recovery.Decide d) {
        if (d.round() == decidedRound) {
            if (d.round() == appliedRound) { // a repeated decision: the answer may have been lost
                ds.send(from, new Recovery.Applied(d.round(), ds.dsIndex(), ds.store().keyCount(), appliedKept,
                        appliedDropped));
            }
            return;
        }
        if (d.round() != round || contents == null) {
            LOG.warn("ds{}: ignoring decision of round {} (in round {})", ds.dsIndex(), d.round(), round);
            return;
        }
        Set<Long> keep = new HashSet<>();
        for (long t : d.keep()) {
            keep.add(t);
        }
        List<LogRecord> out = new ArrayList<>();
        Map<Key, LogRecord.Op> winners = new HashMap<>();
        int kept = 0;
        for (LogContents.TxnLog t : contents.txns.values()) {
            if (!keep.contains(t.txn)) {
                continue;
            }
            kept++;
            for (LogRecord.Op op : t.ops) {
                LogRecord.Op w = winners.get(op.key());
                if (w == null || w.orderKey() < op.orderKey()) {
                    winners.put(op.key(), op);
                }
            }
        }
        for (LogRecord.Op op : winners.values()) {
            VersionChain c = ds.store().chain(op.key());
            Version cur = c.latest();
            if (cur != null && cur.orderKey() >= op.orderKey()) {
                continue;
            }
            c.pruneBefore(c.size());
            Version v = new Version(op.txn(), -1, 0, op.row(), true);
            v.restoreWriteSeq(op.writeSeq());
            v.setOrderKey(op.orderKey());
            v.rebase();
            c.restore(v);
            out.add(new LogRecord.Data(op.key(), op.orderKey(), op.txn(), op.row()));
        }
        if (ds.recorder().recording()) {
            rebuildHistory(keep, out);
        }
        out.add(new LogRecord.Decision(d.round(), d.persisted(), d.epochBase()));
        decidedBase = d.epochBase();
        int dropped = contents.txns.size() - kept;
        int keptCount = kept;
        ds.module().install(ds.config()); // step 3: a fresh CC module over the re-based versions
        ds.gc().reset();
        long r = d.round();
        decidedRound = r;
        dur.store.write(out, true, () -> {
            if (round == r) {
                appliedRound = r;
                appliedKept = keptCount;
                appliedDropped = dropped;
                ds.send(from, new Recovery.Applied(r, ds.dsIndex(), ds.store().keyCount(), keptCount, dropped));
                LOG.info("ds{}: recovery round {}: kept {} and dropped {} logged transactions (cut: epoch {}); "
                        + "{} ms so far", ds.dsIndex(), r, keptCount, dropped, d.persisted(), millis());
            }
        });
    }

    /**
     * Rebuilds the recorded history of the survivors: those kept by earlier recoveries (their history records) and
     * those kept now (their precommit logs), with each key's version order from the order keys.
     */
    private void rebuildHistory(Set<Long> keep, List<LogRecord> out) {
        HistoryLog h = ds.recorder().fresh();
        Map<Key, List<long[]>> order = new HashMap<>();
        List<LogRecord.History> all = new ArrayList<>(contents.histories);
        for (LogContents.TxnLog t : contents.txns.values()) {
            if (keep.contains(t.txn) && t.precommit != null) {
                List<LogRecord.Written> ws = new ArrayList<>();
                for (LogRecord.Op op : t.ops) {
                    ws.add(new LogRecord.Written(op.key(), op.writeSeq(), op.orderKey()));
                }
                LogRecord.History rec = new LogRecord.History(t.txn, t.precommit.typeId(), t.precommit.reads(), ws);
                all.add(rec);
                out.add(rec);
            }
        }
        for (LogRecord.History r : all) {
            h.outcome(r.txn(), true, ds.database().type(r.typeId()).name());
            if (r.reads() != null) {
                for (LogRecord.Read rd : r.reads()) {
                    h.read(r.txn(), rd.key(), rd.writer(), rd.writeSeq());
                }
            }
            for (LogRecord.Written w : r.writes()) {
                for (int s = 1; s <= w.writeSeq(); s++) {
                    h.write(r.txn(), w.key(), s);
                }
                order.computeIfAbsent(w.key(), k -> new ArrayList<>()).add(new long[]{w.orderKey(), r.txn()});
            }
        }
        order.forEach((key, list) -> {
            list.sort(Comparator.comparingLong(a -> a[0]));
            long[] writers = new long[list.size() - 1];
            for (int i = 0; i < writers.length; i++) {
                writers[i] = list.get(i)[1];
            }
            for (long w : writers) {
                ds.recorder().pruned(key, w);
            }
        });
    }

    private void finish(NodeId from, long r) {
        if (r == finishingRound) {
            if (r == finishedRound) { // a repeated finish: the answer may have been lost
                ds.send(from, new Recovery.Finished(r, ds.dsIndex()));
            }
            return;
        }
        long base;
        if (contents != null && contents.pendingDecision != null && contents.pendingDecision.round() == r
                && round != r) {
            base = contents.pendingDecision.epochBase(); // a round decided before this server restarted
        } else if (round == r) {
            base = decidedBase;
        } else {
            ds.send(from, new Recovery.Finished(r, ds.dsIndex()));
            return;
        }
        List<LogRecord> out = List.of(new LogRecord.ClearLog(), new LogRecord.Decision(-1, 0, 0),
                new LogRecord.Finished(r, base), new LogRecord.Persisted(base - 1));
        finishingRound = r;
        dur.store.write(out, true, () -> {
            finishedRound = r;
            if (round == r) {
                dur.resume(r, base);
                ds.termination().forgetDead();
                LOG.info("ds{}: recovery round {} finished in {} ms; {} keys; epochs restart at {}", ds.dsIndex(),
                        r, millis(), ds.store().keyCount(), base);
            }
            ds.send(from, new Recovery.Finished(r, ds.dsIndex()));
        });
    }

    /** Recovery began: every transaction and the whole in-memory state go; the store is rebuilt from the log. */
    static void dropEverything(DataServer ds) {
        ds.features().each(DsFeature::recoveryBegan);
        ds.txns().dropAll(ds.gc().pruned());
        ds.store().clear();
        ds.gc().reset();
        ds.recorder().clearPruned();
        ds.module().install(ds.config());
    }
}
