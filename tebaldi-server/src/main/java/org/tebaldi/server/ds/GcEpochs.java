package org.tebaldi.server.ds;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.cost.HandlerUnits;
import org.tebaldi.core.storage.MultiVersionStore;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;

/**
 * Garbage collection of versions at one data server in GC epochs (dissertation §4.5.3). Every transaction gets
 * the current GC epoch when it first reaches this server; the epoch advances every {@code epochMicros} µs while
 * anything is pending. Once the epoch has passed and all its transactions finished here, every CC node's DS part
 * is asked to confirm ({@link DsPart#confirmGc}) that it will never order an ongoing or future transaction before
 * them; once all confirmed, the versions its committed transactions wrote are settled and each of their chains
 * drops the committed versions older than its newest settled one. Epochs are confirmed independently. Owned by
 * the data-server actor; the timer runs only while an epoch is open or unconfirmed.
 *
 * <p>The epochs also tell the store which chains no running transaction can hold (docs/performance.md, "Rows off
 * the heap"): lookups stamp a chain with the current epoch ({@link MultiVersionStore#advanceClock}), and at every
 * tick, and when the last epoch was collected, the chains stamped before the oldest epoch with a running
 * transaction whose only version is settled leave the heap ({@link MultiVersionStore#evict}).
 */
final class GcEpochs {
    /** Default GC epoch length, µs. */
    static final long DEFAULT_EPOCH_MICROS = 50_000;
    /** Chains examined per eviction pass (a pass over a busy store takes a few ms). */
    static final int EVICT_CHAINS = 32_768;
    /** Records the base store's upkeep (compaction, spilling to disk) moves per pass at most. */
    static final int UPKEEP_RECORDS = 8_192;

    private static final class Epoch {
        final long id;
        int live;
        boolean asked;
        final List<List<DsTxnImpl.Written>> written = new ArrayList<>();

        Epoch(long id) {
            this.id = id;
        }
    }

    private final DataServer ds;
    private final long epochMicros;
    private final ArrayDeque<Epoch> epochs = new ArrayDeque<>();
    private final boolean keepOrder;
    private long current = 1;
    private long generation;
    private boolean ticking;
    private long pruned;
    private long settled;

    /**
     * @param keepOrder tell the history recorder the writers of pruned versions, oldest first (for its version
     *                  orders)
     */
    GcEpochs(DataServer ds, long epochMicros, boolean keepOrder) {
        this.ds = ds;
        this.epochMicros = epochMicros;
        this.keepOrder = keepOrder;
    }

    /** A transaction reached this server: it belongs to the current epoch; returns the epoch id. */
    long join() {
        Epoch e = epochs.peekLast();
        if (e == null || e.id != current) {
            e = new Epoch(current);
            epochs.addLast(e);
        }
        e.live++;
        ds.store().advanceClock(current);
        if (!ticking && epochMicros > 0) {
            ticking = true;
            ds.schedule(epochMicros, this::tick);
        }
        return current;
    }

    /** Transaction {@code t} of epoch {@code t.gcEpoch} finished here; its writes count if it committed. */
    void leave(DsTxnImpl t, boolean committed) {
        for (Epoch e : epochs) {
            if (e.id == t.gcEpoch) {
                e.live--;
                if (committed && !t.writes.isEmpty()) {
                    e.written.add(t.writes);
                }
                return;
            }
        }
    }

    /**
     * The CC module was replaced or changed (reconfiguration): confirmations asked of the old parts may never come,
     * so every epoch waiting for them is asked again with the new parts.
     */
    void partsChanged() {
        generation++;
        for (Epoch e : epochs) {
            e.asked = false;
        }
    }

    private void tick() {
        current++;
        ds.store().advanceClock(current);
        for (Epoch e : new ArrayList<>(epochs)) {
            if (e.id < current && e.live == 0 && !e.asked) {
                ask(e);
            }
        }
        if (epochs.isEmpty()) {
            ticking = false;
        } else {
            ds.schedule(epochMicros, this::tick);
        }
        evict();
    }

    /** The oldest epoch with a running transaction here, or the current one + 1 if none runs. */
    long oldestLive() {
        long m = current + 1;
        for (Epoch e : epochs) {
            if (e.live > 0 && e.id < m) {
                m = e.id;
            }
        }
        return m;
    }

    /**
     * Chains no running transaction can hold, and that hold only a settled version, leave the heap; the chains that
     * left are the pass's work units: moving a chain (encoding it into the base store, reporting its final version
     * to the history, removing it from the map) is the pass's work, and since the pass stops at the first chain a
     * running epoch holds, it looks at few chains it does not move (docs/simulation.md, "Version collection").
     */
    private void evict() {
        work(ds.store().evict(oldestLive(), EVICT_CHAINS, UPKEEP_RECORDS));
    }

    /**
     * The running handler collects versions: it is charged as kind {@value HandlerUnits#VERSION_GC} with {@code
     * units} more work units (chains an eviction pass moved to the base store, versions settled and pruned), so that
     * the simulated cluster charges collection by the work done, not by the mean of a calibration's handlers
     * (docs/simulation.md, "Version collection").
     */
    private static void work(int units) {
        HandlerUnits.kind(HandlerUnits.VERSION_GC);
        HandlerUnits.add(units);
    }

    private void ask(Epoch e) {
        e.asked = true;
        List<Version> versions = new ArrayList<>();
        for (List<DsTxnImpl.Written> ws : e.written) {
            for (DsTxnImpl.Written w : ws) {
                versions.add(w.version());
            }
        }
        List<DsPart<Object>> parts = ds.module().parts();
        int[] waiting = {parts.size()};
        long gen = generation;
        Runnable one = () -> {
            if (gen == generation && e.asked && --waiting[0] == 0) {
                collect(e);
            }
        };
        if (parts.isEmpty()) {
            collect(e);
            return;
        }
        for (DsPart<Object> p : parts) {
            p.confirmGc(versions, () -> ds.later(one));
        }
    }

    private void collect(Epoch e) {
        epochs.remove(e);
        int versions = 0;
        for (List<DsTxnImpl.Written> ws : e.written) {
            for (DsTxnImpl.Written w : ws) {
                w.version().settle();
            }
            versions += ws.size();
        }
        settled += versions;
        work(versions);
        for (List<DsTxnImpl.Written> ws : e.written) {
            for (DsTxnImpl.Written w : ws) {
                ds.recorder().reportFinal(w.key(), w.chain(), false);
                pruned += w.chain().pruneSettled(keepOrder ? writer -> ds.recorder().pruned(w.key(), writer) : null);
            }
        }
        if (epochs.isEmpty()) {
            evict(); // the last epoch: no tick may follow
        }
    }

    /**
     * Forgets every epoch (the CC module was rebuilt and every version re-based, or the store was reloaded); the
     * history recorder looks at their written keys at its hand-overs instead ({@link DsHistory#epochDropped}).
     * Returns the writes of the dropped epochs: a partial restart hands them to {@link #settleDropped} once it
     * re-based the store.
     */
    List<List<DsTxnImpl.Written>> reset() {
        forEachPendingWrite((key, chain) -> ds.recorder().epochDropped(key));
        List<List<DsTxnImpl.Written>> dropped = new ArrayList<>();
        for (Epoch e : epochs) {
            dropped.addAll(e.written);
        }
        epochs.clear();
        generation++;
        return dropped;
    }

    /**
     * A partial restart re-based every committed version (settled: dissertation §5.5.1), so the chains the dropped
     * epochs wrote report their final versions and drop the older ones, as those epochs' collection would have
     * ({@link #collect}). Left alone, each kept every version written before the restart for good — a key written
     * once (an insert) was never written again to be pruned — and stayed on the heap, rescanned by every eviction
     * pass (docs/performance.md, "Long runs").
     */
    void settleDropped(List<List<DsTxnImpl.Written>> dropped) {
        for (List<DsTxnImpl.Written> ws : dropped) {
            for (DsTxnImpl.Written w : ws) {
                ds.recorder().reportFinal(w.key(), w.chain(), false);
                pruned += w.chain().pruneSettled(keepOrder ? writer -> ds.recorder().pruned(w.key(), writer) : null);
            }
        }
    }

    /**
     * Every key and chain written by a committed transaction of an epoch not collected yet (streamed checking: its
     * versions are reported final when the node stopped).
     */
    void forEachPendingWrite(BiConsumer<Key, VersionChain> action) {
        for (Epoch e : epochs) {
            for (List<DsTxnImpl.Written> ws : e.written) {
                for (DsTxnImpl.Written w : ws) {
                    action.accept(w.key(), w.chain());
                }
            }
        }
    }

    /** Versions pruned so far. */
    long pruned() {
        return pruned;
    }

    /** Versions settled so far (each committed write, once its epoch was collected). */
    long settled() {
        return settled;
    }

    /** GC epochs not yet collected (open, running or waiting for confirmation). */
    int pendingEpochs() {
        return epochs.size();
    }
}
