package org.tebaldi.server.replica;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.server.durability.LogRecord;

/**
 * The applied views a backup keeps of the partitions it replicates, for reads from the nearest replica
 * (docs/mechanisms.md "Replication", {@code cluster.replication.reads: nearest}): per partition, per key, the newest
 * {@link #VERSIONS_PER_KEY} committed versions with the root's stamps, seeded from the primary's initial load and
 * fed by its {@link ReplicaMessages.View}s in their {@code seq} order (early ones wait for the missing ones), each
 * write placed by the Thomas write rule on stamps — a version goes where its stamp puts it, whatever order it
 * arrived in, and a key keeps the one with the largest stamp as its newest (COCO §4, asynchronous replication);
 * and the partition's watermark, raised only after the writes of the same View are applied. A {@link
 * ReplicaMessages.Read} at snapshot bound {@code s ≤ watermark} is answered with the newest version stamped at or
 * below {@code s}; one above the watermark waits up to {@link #READ_WAIT_MICROS} for a View that raises it, and is
 * refused then (the coordinator reads at the primary; a writer is never waited for). Also refused: a key the view does
 * not know (absent rows are the primary's to answer) or whose versions at or below {@code s} were pruned, and a
 * snapshot below the root part's serve floor ({@code DsPart.replicaServeFloor}: a primary may have garbage-collected
 * past it, and a snapshot read here holds back no primary's garbage collection). After a
 * data server failure or a recovery round ({@link #dropAll}) nothing is served any more: a recovery round may
 * retract commits the views hold. Data-server thread only.
 */
public final class ReplicaViews {
    /** Versions kept per key; an older one is dropped and the key marked pruned. */
    public static final int VERSIONS_PER_KEY = 8;
    /** How long a read above the watermark may wait for the watermark to reach its snapshot, µs. */
    public static final long READ_WAIT_MICROS = 5_000;

    private static final class Versions {
        /** Stamp-ascending. */
        final List<ReplicaMessages.ViewWrite> list = new ArrayList<>(2);
        boolean pruned;
    }

    private static final class View {
        final Map<Key, Versions> keys = new HashMap<>();
        final TreeMap<Long, ReplicaMessages.View> early = new TreeMap<>();
        long next = 1;
        long watermark = Long.MIN_VALUE;
        final List<Waiting> waiting = new ArrayList<>();
    }

    private record Waiting(NodeId from, ReplicaMessages.Read read) {
    }

    /**
     * Whether reads above the watermark wait or are refused — always, except in the test that shows a backup
     * serving above its watermark is caught (it turns the check off and expects violations).
     */
    private static volatile boolean checkWatermark = true;

    /** Tests only: {@code false} lets backups serve reads above their watermark (a bug the tests must catch). */
    public static void checkWatermarkForTests(boolean on) {
        checkWatermark = on;
    }

    private final Map<Integer, View> views = new HashMap<>();
    private final BiConsumer<NodeId, Object> send;
    private final BiConsumer<Long, Runnable> timer;
    private final LongSupplier clock;
    private final LongSupplier serveFloor;
    private boolean dropped;
    private volatile long served;
    private volatile long refused;
    private volatile long lagMicros;
    private volatile long lagSamples;

    /**
     * @param send  sends a message from this data server
     * @param timer runs a task on this data server's thread after a delay in µs
     * @param clock this data server's clock, µs
     * @param serveFloor the root part's {@code replicaServeFloor()} here: snapshots below it are refused
     */
    public ReplicaViews(BiConsumer<NodeId, Object> send, BiConsumer<Long, Runnable> timer, LongSupplier clock,
                        LongSupplier serveFloor) {
        this.send = send;
        this.timer = timer;
        this.clock = clock;
        this.serveFloor = serveFloor;
    }

    private View view(int partition) {
        return views.computeIfAbsent(partition, p -> new View());
    }

    /** Rows of {@code partition}'s initial load (visible to every snapshot: they carry no stamp). */
    public void seed(int partition, List<LogRecord.Data> rows) {
        if (dropped) {
            return;
        }
        View v = view(partition);
        for (LogRecord.Data d : rows) {
            apply(v, new ReplicaMessages.ViewWrite(d.key(), Version.NO_STAMP, d.writer(), 1, 0, d.row()));
        }
    }

    /** A batch of committed writes and a watermark from {@code w.partition()}'s primary. */
    public void onView(ReplicaMessages.View w) {
        if (dropped) {
            return;
        }
        View v = view(w.partition());
        if (w.seq() < v.next) {
            return;
        }
        v.early.put(w.seq(), w);
        while (!v.early.isEmpty() && v.early.firstKey() == v.next) {
            ReplicaMessages.View x = v.early.pollFirstEntry().getValue();
            v.next++;
            for (ReplicaMessages.ViewWrite e : x.writes()) {
                apply(v, e);
            }
            v.watermark = Math.max(v.watermark, x.watermark());
            if (x.oldestCommitMicros() >= 0) {
                lagMicros += Math.max(0, clock.getAsLong() - x.oldestCommitMicros());
                lagSamples++;
            }
        }
        if (!v.waiting.isEmpty()) {
            List<Waiting> ws = new ArrayList<>(v.waiting);
            v.waiting.clear();
            for (Waiting q : ws) {
                answer(q.from(), q.read(), false);
            }
        }
    }

    /** The Thomas write rule on stamps: the version goes to its stamp's place; the same write twice is kept once. */
    private static void apply(View v, ReplicaMessages.ViewWrite e) {
        Versions vs = v.keys.computeIfAbsent(e.key(), k -> new Versions());
        List<ReplicaMessages.ViewWrite> l = vs.list;
        int at = l.size();
        while (at > 0 && l.get(at - 1).stamp() > e.stamp()) {
            at--;
        }
        if (at > 0 && l.get(at - 1).stamp() == e.stamp() && l.get(at - 1).writer() == e.writer()) {
            if (l.get(at - 1).writeSeq() < e.writeSeq()) {
                l.set(at - 1, e);
            }
            return;
        }
        l.add(at, e);
        if (l.size() > VERSIONS_PER_KEY) {
            l.remove(0);
            vs.pruned = true;
        }
    }

    /** A coordinator's read of a partition kept here. */
    public void onRead(NodeId from, ReplicaMessages.Read r) {
        answer(from, r, true);
    }

    private void answer(NodeId from, ReplicaMessages.Read r, boolean mayWait) {
        View v = dropped ? null : views.get(r.partition());
        if (v == null) {
            refuse(from, r);
            return;
        }
        if (r.snapshot() > v.watermark && checkWatermark) {
            if (!mayWait) {
                v.waiting.add(new Waiting(from, r));
                return;
            }
            Waiting q = new Waiting(from, r);
            v.waiting.add(q);
            timer.accept(READ_WAIT_MICROS, () -> {
                if (v.waiting.remove(q)) {
                    refuse(from, r);
                }
            });
            return;
        }
        Versions vs = v.keys.get(r.key());
        ReplicaMessages.ViewWrite found = null;
        if (vs != null) {
            for (int i = vs.list.size() - 1; i >= 0; i--) {
                if (vs.list.get(i).stamp() <= r.snapshot()) {
                    found = vs.list.get(i);
                    break;
                }
            }
        }
        if (found == null || r.snapshot() < serveFloor.getAsLong()) {
            // an absent row, pruned below the snapshot, or a snapshot so old that a primary may have settled a
            // version it skips (garbage collection): the primary answers
            refuse(from, r);
            return;
        }
        served++;
        send.accept(from, new ReplicaMessages.ReadReply(r.reqId(), true, found.row(), found.writer(),
                found.writeSeq(), found.epoch()));
    }

    private void refuse(NodeId from, ReplicaMessages.Read r) {
        refused++;
        send.accept(from, new ReplicaMessages.ReadReply(r.reqId(), false, null, 0, 1, 0));
    }

    /**
     * A data server failed or a recovery round began: the views may hold commits the round retracts, so every view
     * is dropped for good and every read from now on (and every waiting one) is refused.
     */
    public void dropAll() {
        if (dropped) {
            return;
        }
        dropped = true;
        for (View v : views.values()) {
            for (Waiting q : v.waiting) {
                refuse(q.from(), q.read());
            }
        }
        views.clear();
    }

    /** The watermark of {@code partition}'s view here (Long.MIN_VALUE if none). */
    public long watermark(int partition) {
        View v = views.get(partition);
        return v == null ? Long.MIN_VALUE : v.watermark;
    }

    /** Reads served here so far. */
    public long served() {
        return served;
    }

    /** Reads refused here so far (the coordinator then read at the primary). */
    public long refused() {
        return refused;
    }

    /** Sum of the replica lag samples (µs) and their number: each applied View's oldest write, commit to apply. */
    public long[] lag() {
        return new long[] {lagMicros, lagSamples};
    }
}
