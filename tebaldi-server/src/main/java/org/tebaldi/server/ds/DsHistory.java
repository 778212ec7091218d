package org.tebaldi.server.ds;

import it.unimi.dsi.fastutil.objects.ObjectIterator;
import it.unimi.dsi.fastutil.objects.ObjectLinkedOpenHashSet;
import java.util.Map;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.history.HistoryHandOver;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.storage.MultiVersionStore;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;

/**
 * What a data server records for the history checker (docs/architecture.md, "Verification"): every read (which
 * writer's version, which of its writes), every write, every outcome decided here, and at the end each key's
 * committed version order — with the writers garbage collection pruned first. Inactive when the cluster does not
 * record its history. Data-server thread only.
 */
final class DsHistory {
    private HistoryLog log;
    /** Streamed checking: where the log goes every period (null: kept whole until the end). */
    private HistoryHandOver stream;
    /** The period of the hand-overs when streaming, µs. */
    private long periodMicros;
    private int source;
    /**
     * Streamed checking: keys whose committed versions no GC epoch will report final — every written key when the
     * server runs no GC epochs, else only those of epochs a reset dropped ({@link #epochDropped}) — checked at each
     * hand-over; in first-write order, open addressing, no node per key.
     */
    private final ObjectLinkedOpenHashSet<Key> unreported = new ObjectLinkedOpenHashSet<>();
    /** Whether the server collects GC epochs, each reporting its writes final as it is collected. */
    private boolean gcEpochs;

    DsHistory(boolean recording) {
        this.log = recording ? new HistoryLog() : null;
    }

    boolean recording() {
        return log != null;
    }

    /**
     * Streams the history to {@code stream} as node {@code source} instead of keeping it (docs/architecture.md,
     * "Verification"): version orders are then reported as they become final, not at the end.
     */
    void stream(HistoryHandOver stream, int source, long periodMicros) {
        if (log != null) {
            this.stream = stream;
            this.source = source;
        }
        this.periodMicros = periodMicros;
    }

    /**
     * The server started: when streaming, the log is handed over every period ({@link #stream}). With
     * {@code gcEpochs}, each collected GC epoch reports its writes final ({@link GcEpochs}), so the hand-overs do
     * not look at written keys: on 2 cores that look cost 5.5% of the node threads' samples, with the set of written
     * keys another 2.6% (docs/architecture.md, "Verification").
     */
    void start(DataServer ds, MultiVersionStore store, boolean gcEpochs) {
        this.gcEpochs = gcEpochs;
        if (stream != null) {
            store.beforeEviction((key, chain) -> reportFinal(key, chain, false));
            Runnable[] tick = new Runnable[1];
            tick[0] = () -> {
                handOver(store, false);
                ds.schedule(periodMicros, tick[0]);
            };
            ds.schedule(periodMicros, tick[0]);
        }
    }

    boolean streaming() {
        return stream != null;
    }

    /**
     * Streamed checking: reports the committed versions of {@code key} whose place in the version order is final
     * and not reported yet — those up to the newest settled committed version (dissertation §4.5.3: no CC orders an
     * ongoing or future transaction before a settled version, so an uncommitted version before it never commits —
     * it is skipped; one left behind by a transaction a partial restart dropped would otherwise block the key
     * forever); with {@code all}, every committed version (the run is over). Returns whether every version of the
     * chain is committed and reported.
     */
    boolean reportFinal(Key key, VersionChain chain, boolean all) {
        if (stream == null) {
            return true;
        }
        int n = chain.size();
        int last = all ? n - 1 : -1;
        for (int i = n - 1; i >= 0 && last < 0; i--) {
            Version v = chain.get(i);
            if (v.committed() && v.settled()) {
                last = i;
            }
        }
        boolean done = last == n - 1;
        for (int i = 0; i <= last; i++) {
            Version v = chain.get(i);
            if (!v.committed()) {
                done = false;
                continue;
            }
            if (!v.finalReported()) {
                log.finalVersion(key, v.writer(), v.writeSeq());
                v.markFinalReported();
            }
        }
        return done;
    }

    /**
     * Streamed checking: a reset dropped the GC epoch that would have reported {@code key}'s write final (a
     * partial restart or a recovery; {@link GcEpochs#reset}): the hand-overs look at it from now on.
     */
    void epochDropped(Key key) {
        if (stream != null) {
            unreported.add(key);
        }
    }

    /**
     * Streamed checking: reports what became final and hands the log over (also when empty); with {@code end}
     * (the node stopped), every remaining committed version — the caller reports those of the GC epochs not
     * collected yet first ({@link GcEpochs#forEachPendingWrite}). Data-server thread, or any thread once it
     * stopped.
     */
    void handOver(MultiVersionStore store, boolean end) {
        if (stream == null) {
            return;
        }
        ObjectIterator<Key> it = unreported.iterator();
        while (it.hasNext()) {
            Key k = it.next();
            // An evicted chain was reported as it left the heap (start: beforeEviction; it held one settled
            // version). Reading it back here (find) would decode it and keep it on the heap for the next epoch:
            // up to a quarter of the data servers' CPU with verification on (docs/architecture.md, "Verification").
            VersionChain chain = store.peek(k);
            if (chain == null || reportFinal(k, chain, end)) {
                it.remove();
            }
        }
        stream.handOver(source, () -> {
            HistoryLog l = log;
            log = new HistoryLog();
            return l;
        });
    }

    /** Forgets the pruned writers (the store is about to be rebuilt from the log, which remembers them). */
    void clearPruned() {
        if (log != null) {
            log.clearPruned();
        }
    }

    /** A new, empty log (recovery rebuilds the survivors' history); returns it. */
    HistoryLog fresh() {
        log = new HistoryLog();
        return log;
    }

    void outcome(DsTxnImpl t, boolean committed, String type) {
        if (log != null) {
            log.outcome(t.id(), committed, type);
        }
    }

    /**
     * Streamed checking: {@code t} aborted here and its versions were removed; logged if it read or wrote here,
     * so that the checker knows no read of its versions can follow, and learns the outcome of an operation this
     * server logged after the coordinator's abort (the coordinator aborts without waiting for the operations in
     * flight; docs/architecture.md, "Verification").
     */
    void versionsRemoved(DsTxnImpl t, String type) {
        if (stream != null && (!t.writes.isEmpty() || t.readLogged)) {
            log.outcome(t.id(), false, type);
        }
    }

    /** {@code t} read the {@code seq}-th write of {@code writer} to {@code key} (also kept for its precommit log). */
    void read(DsTxnImpl t, Key key, long writer, int seq) {
        if (log != null) {
            log.read(t.id(), key, writer, seq);
            t.readLogged = true;
            if (t.loggedReads != null) {
                t.loggedReads.add(new org.tebaldi.server.durability.LogRecord.Read(key, writer, seq));
            }
        }
    }

    /** Garbage collection pruned {@code writer}'s committed version of {@code key} (oldest first per key). */
    void pruned(Key key, long writer) {
        if (log != null && stream == null) {
            log.pruned(key, writer);
        }
    }

    void write(DsTxnImpl t, Key key, int seq) {
        if (log != null) {
            log.write(t.id(), key, seq);
            if (stream != null && !gcEpochs) {
                unreported.add(key);
            }
        }
    }

    /**
     * The recorded history with each written key's final committed version order (writer 0 first when the key
     * did not exist at load time); null if recording is off. Call after the node stopped.
     */
    HistoryLog export(MultiVersionStore store) {
        if (log == null) {
            return null;
        }
        Map<Key, long[]> prunedOrders = log.prunedOrders();
        store.forEach((key, chain) -> {
            long[] order = chain.committedOrder();
            long[] pruned = prunedOrders.get(key);
            if (pruned != null) {
                long[] all = new long[pruned.length + order.length];
                System.arraycopy(pruned, 0, all, 0, pruned.length);
                System.arraycopy(order, 0, all, pruned.length, order.length);
                order = all;
            }
            if (order.length == 1 && order[0] == Version.INITIAL_WRITER) {
                return;
            }
            if (order.length == 0 || order[0] != Version.INITIAL_WRITER) {
                long[] withInit = new long[order.length + 1];
                System.arraycopy(order, 0, withInit, 1, order.length);
                order = withInit;
            }
            log.versionOrder(key, order);
        });
        return log;
    }
}
