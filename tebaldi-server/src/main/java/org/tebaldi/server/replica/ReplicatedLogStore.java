package org.tebaldi.server.replica;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.durability.ForwardingLogStore;
import org.tebaldi.server.durability.LogFormat;
import org.tebaldi.server.durability.LogRecord;
import org.tebaldi.server.durability.LogStore;

/**
 * A primary data server's log store under replication (docs/mechanisms.md "Replication"): every write goes to the
 * local store and, encoded, to each backup ({@link ReplicaMessages.Ship}, numbered 1, 2, …). A write's completion
 * waits for every live backup's {@link ReplicaMessages.Ack} when it closes a GCP epoch or is a recovery step
 * ({@link LogRecord.Persisted}, {@link LogRecord.Decision}, {@link LogRecord.Finished}) — so an epoch counts as
 * persisted only once it is on the backups too — and, in {@link ReplicationOptions.Mode#SYNC}, when it holds a
 * precommit log: the vote then follows the backups' copy (2PC(sync)); in both modes when it holds the precommit log
 * of a transaction whose inner region committed before its vote ({@link #writeReleased}, Zamanian et al. SIGMOD 2020 §5). Other writes
 * are shipped without waiting.
 * A backup whose {@code NodeDown} arrived is no longer waited for nor shipped to. Writes not yet acknowledged are
 * kept and shipped again to a backup that acknowledged nothing for {@link #RESEND_MICROS} while a write waits for it (a
 * dropped connection loses what was in flight; the backup ignores a write it has, and acknowledges it again). Runs
 * on the data server's thread only (the local store's callbacks come back through the owner executor).
 */
public final class ReplicatedLogStore extends ForwardingLogStore {
    private static final class Pending {
        final long seq;
        final Runnable done;
        boolean local;

        Pending(long seq, Runnable done) {
            this.seq = seq;
            this.done = done;
        }
    }

    /**
     * How long a backup may go without acknowledging anything while a write waits for it before the unacknowledged
     * writes leave again, µs (a dropped connection; a slow backup that still acknowledges is not sent anything again).
     */
    public static final long RESEND_MICROS = 200_000;

    private final ArrayDeque<ReplicaMessages.Ship> unacked = new ArrayDeque<>();
    private final java.util.function.BiConsumer<Long, Runnable> timer;
    private volatile long resent;
    private final int partition;
    private final ReplicationOptions.Mode mode;
    private final LogFormat format;
    private final int[] backups;
    private final boolean[] down;
    private final long[] acked;
    private final long[] ackedAtTick;
    private long headAtTick = -1;
    private long loadSeq;
    private volatile boolean loadReplicated;
    private final BiConsumer<NodeId, Object> send;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final List<ReplicaMessages.Ship> early = new ArrayList<>();
    private boolean started;
    private long seq;
    private volatile long shippedRecords;
    private volatile long waitedWrites;
    private volatile long innerHostWaits;

    /**
     * @param local     the data server's own store
     * @param partition the data server's index
     * @param backups   the data servers keeping this partition's backups ({@link ReplicationOptions#backupsOf})
     * @param send      sends a message from the data server (its thread)
     * @param timer     runs a task on the data server's thread after a delay in µs
     */
    public ReplicatedLogStore(LogStore local, int partition, ReplicationOptions.Mode mode, int[] backups,
                              Catalog catalog, BiConsumer<NodeId, Object> send,
                              java.util.function.BiConsumer<Long, Runnable> timer) {
        super(local);
        this.timer = timer;
        this.partition = partition;
        this.mode = mode;
        this.format = new LogFormat(catalog);
        this.backups = backups.clone();
        this.down = new boolean[backups.length];
        this.acked = new long[backups.length];
        this.ackedAtTick = new long[backups.length];
        this.send = send;
    }

    /** The data server started: writes queued before (the initial load) leave now. */
    public void start() {
        started = true;
        timer.accept(RESEND_MICROS, this::resendTick);
        if (!early.isEmpty()) { // the last write of the initial load asks for an acknowledgement
            ReplicaMessages.Ship last = early.remove(early.size() - 1);
            early.add(new ReplicaMessages.Ship(partition, last.seq(), true, last.records()));
            unacked.pollLast();
            unacked.add(early.get(early.size() - 1));
            loadSeq = last.seq();
        }
        for (ReplicaMessages.Ship s : early) {
            shipNow(s);
        }
        early.clear();
        release();
    }

    /**
     * Whether every live backup acknowledged the writes made before the data server started (the initial load) —
     * a runner waits for it so that the backups' catching up does not spill into the measured run. Any thread.
     */
    public boolean initialLoadReplicated() {
        return loadReplicated;
    }

    @Override
    public void write(List<LogRecord> records, boolean sync, Runnable done) {
        write(records, sync, done, false);
    }

    /**
     * Writes the precommit record (with its operation logs) of a transaction whose inner region committed here
     * before its vote ({@link org.tebaldi.core.cc.EarlyRelease}; Zamanian et al. SIGMOD 2020 §5): its completion, hence the vote,
     * waits for every live backup's acknowledgement in both modes, so the coordinator reports the commit only once
     * the backups hold the released writes. Counted in {@link #innerHostWaits} when a backup is live.
     */
    public void writeReleased(List<LogRecord> records, boolean sync, Runnable done) {
        if (liveBackups() > 0) {
            innerHostWaits++;
        }
        write(records, sync, done, true);
    }

    /** Whether a precommit record's completion waits for the backups ({@link ReplicationOptions.Mode#SYNC}). */
    public boolean precommitWaits() {
        return mode == ReplicationOptions.Mode.SYNC && liveBackups() > 0;
    }

    private void write(List<LogRecord> records, boolean sync, Runnable done, boolean ack) {
        boolean wait = (ack || needsAck(records)) && liveBackups() > 0;
        long s = ship(records, wait);
        if (!wait) {
            inner.write(records, sync, done);
            return;
        }
        waitedWrites++;
        Pending p = new Pending(s, done);
        pending.add(p);
        inner.write(records, sync, () -> {
            p.local = true;
            release();
        });
    }

    /**
     * Runs {@code then} once every write shipped so far is on every live backup (at once if it already is) — an
     * epoch's prepare under {@code commit: epoch} (COCO §4: an epoch commits only once replicated).
     */
    public void afterReplicated(Runnable then) {
        if (liveBackups() == 0 || replicated(seq)) {
            then.run();
            return;
        }
        Pending p = new Pending(ship(List.of(), true), then);
        p.local = true;
        pending.add(p);
    }

    private boolean needsAck(List<LogRecord> records) {
        for (LogRecord r : records) {
            if (r instanceof LogRecord.Persisted || r instanceof LogRecord.Decision || r instanceof LogRecord.Finished
                    || (mode == ReplicationOptions.Mode.SYNC && r instanceof LogRecord.Precommit)) {
                return true;
            }
        }
        return false;
    }

    private long ship(List<? extends LogRecord> records, boolean ack) {
        List<LogRecord> out = new ArrayList<>(records.size());
        List<LogRecord> run = new ArrayList<>();
        for (LogRecord r : records) {
            if (r instanceof LogRecord.ClearLog) {
                encodeRun(run, out);
                out.add(r);
            } else {
                run.add(r);
            }
        }
        encodeRun(run, out);
        ReplicaMessages.Ship s = new ReplicaMessages.Ship(partition, ++seq, ack, out);
        shippedRecords += records.size();
        if (liveBackups() > 0) {
            unacked.add(s);
        }
        if (started) {
            shipNow(s);
        } else {
            early.add(s);
        }
        return s.seq();
    }

    private void encodeRun(List<LogRecord> run, List<LogRecord> out) {
        for (LogFormat.Entry e : format.encodeAll(run)) {
            out.add(new LogRecord.Encoded(e.cf(), e.key(), e.value()));
        }
        run.clear();
    }

    private void shipNow(ReplicaMessages.Ship s) {
        for (int i = 0; i < backups.length; i++) {
            if (!down[i]) {
                send.accept(NodeId.ds(backups[i]), s);
            }
        }
    }

    /** A backup acknowledged every write up to {@code ackSeq}. */
    public void onAck(int host, long ackSeq) {
        for (int i = 0; i < backups.length; i++) {
            if (backups[i] == host) {
                acked[i] = Math.max(acked[i], ackSeq);
            }
        }
        release();
    }

    /** Data server {@code host} failed: if it kept a backup, it is no longer shipped to nor waited for. */
    public void nodeDown(int host) {
        for (int i = 0; i < backups.length; i++) {
            if (backups[i] == host) {
                down[i] = true;
            }
        }
        release();
    }

    private void resendTick() {
        Pending p = oldestUnreplicated();
        boolean waitedAPeriod = p != null && p.seq == headAtTick; // the same write waited since the last tick
        for (int i = 0; i < backups.length; i++) {
            if (waitedAPeriod && !down[i] && acked[i] < p.seq && acked[i] == ackedAtTick[i]) {
                resendTo(i);
            }
            ackedAtTick[i] = acked[i];
        }
        headAtTick = p == null ? -1 : p.seq;
        timer.accept(RESEND_MICROS, this::resendTick);
    }

    private Pending oldestUnreplicated() {
        for (Pending p : pending) {
            if (!replicated(p.seq)) {
                return p;
            }
        }
        return null;
    }

    /** Ships every unacknowledged write again to backup {@code i}, the last one asking for an acknowledgement. */
    private void resendTo(int i) {
        ReplicaMessages.Ship last = null;
        for (ReplicaMessages.Ship s : unacked) {
            if (s.seq() > acked[i]) {
                if (last != null) {
                    send.accept(NodeId.ds(backups[i]), last);
                }
                last = s;
            }
        }
        if (last != null) {
            resent++;
            send.accept(NodeId.ds(backups[i]), new ReplicaMessages.Ship(partition, last.seq(), true, last.records()));
        }
    }

    private void trim() {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < backups.length; i++) {
            if (!down[i]) {
                min = Math.min(min, acked[i]);
            }
        }
        while (!unacked.isEmpty() && unacked.peek().seq() <= min) {
            unacked.poll();
        }
    }

    /** Times unacknowledged writes were shipped again to a backup. */
    public long resent() {
        return resent;
    }

    private int liveBackups() {
        int n = 0;
        for (boolean d : down) {
            n += d ? 0 : 1;
        }
        return n;
    }

    private boolean replicated(long s) {
        for (int i = 0; i < backups.length; i++) {
            if (!down[i] && acked[i] < s) {
                return false;
            }
        }
        return true;
    }

    /**
     * Completes every waiting write that is local and on every live backup — each on its own: a write whose local
     * part is slow (a synced persisted-epoch mark) does not hold back a later one that is ready (a vote, an epoch's
     * prepare).
     */
    private void release() {
        trim();
        if (!loadReplicated && started && replicated(loadSeq)) {
            loadReplicated = true;
        }
        List<Runnable> ready = null;
        for (java.util.Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (p.local && replicated(p.seq)) {
                it.remove();
                if (p.done != null) {
                    if (ready == null) {
                        ready = new ArrayList<>(2);
                    }
                    ready.add(p.done);
                }
            }
        }
        if (ready != null) {
            ready.forEach(Runnable::run);
        }
    }

    @Override
    public void load(List<LogRecord.Data> rows) {
        inner.load(rows);
        ship(rows, false);
    }

    /** Encoded rows are written and shipped like any unsynced write (not the wrapped store's bulk load). */
    @Override
    public void loadEncoded(List<LogRecord> rows) {
        write(rows, false, null);
    }

    /** Records shipped so far (each to every live backup). */
    public long shippedRecords() {
        return shippedRecords;
    }

    /** Writes acknowledged by the backups so far, summed over the backups (a write on two backups counts twice). */
    public long acknowledgedWrites() {
        long n = 0;
        for (long a : acked) {
            n += a;
        }
        return n;
    }

    /**
     * Votes of transactions whose inner region committed here before the vote that waited for
     * the backups' acknowledgement of their precommit record ({@link #writeReleased}); also in {@link #waitedWrites}.
     */
    public long innerHostWaits() {
        return innerHostWaits;
    }

    /** Writes whose completion waited for the backups. */
    public long waitedWrites() {
        return waitedWrites;
    }
}
