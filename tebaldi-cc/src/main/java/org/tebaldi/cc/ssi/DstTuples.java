package org.tebaldi.cc.ssi;

import java.util.HashMap;
import java.util.List;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.ts.HybridClock;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.storage.Version;

/**
 * The tuple timestamps of DST (Decentralized Scalar Timestamps, NSDI 2021, §3) at one data server, for an SSI root
 * with {@code timestamps: dst}: each key's timestamp ({@code O.ts}) is the largest commit timestamp installed on it
 * by an update transaction that read or wrote it (RW2); snapshot reads claim one floor for the whole server (RO2,
 * {@link #claim}). An update transaction's commit timestamp exceeds the timestamps of every tuple it accessed and
 * the claim floor, taken at validation ({@link #bound}, RW1). Keys never touched have timestamp 0. Also decides when versions stamped here may be
 * garbage collected ({@link #gcSafe}), as DST has no service watermark.
 */
final class DstTuples {
    /** How far behind the server's clock (beyond the staleness bound) a snapshot may start and still find its versions, µs. */
    static final long GC_SLACK_MICROS = 200_000;
    /** How often waiting GC epochs are checked, µs. */
    private static final long GC_TICK_MICROS = 20_000;

    private final HashMap<Key, Long> ts = new HashMap<>();
    private final DsServices services;
    private final long stalenessMicros;
    /** The largest version stamp confirmed for garbage collection: a snapshot below it may miss pruned versions. */
    private long gcFloor;
    /** The largest read timestamp a snapshot claimed here (RO2). */
    private long claimFloor = -1;
    /** Snapshot transactions live here. */
    private final java.util.Set<SsiDsPart.Snapshot> live = new java.util.HashSet<>();
    /** GC epochs waiting for confirmation, oldest first. */
    private final java.util.ArrayDeque<Epoch> gcQueue = new java.util.ArrayDeque<>();

    /** A GC epoch's written versions and its confirmation. */
    private record Epoch(List<Version> written, int ccNode, Runnable confirmed) {
    }

    DstTuples(DsServices services, long stalenessMicros) {
        this.services = services;
        this.stalenessMicros = stalenessMicros;
    }

    /**
     * RO2: the snapshot read at {@code readTs} claims {@code key}: a writer validating here later commits above it.
     * Kept as one claim floor per data server rather than per key (a writer then commits above every snapshot read
     * here before it prepared, not only those of its keys — a stronger order, still RW1's "larger than the tuples'
     * timestamps"): per-key claims put every key a snapshot ever read into the map, millions under TPC-C's
     * stock_level, and the map's growth stalled the data server's actor.
     */
    void claim(Key key, long readTs) {
        claimFloor = Math.max(claimFloor, readTs);
    }

    /**
     * Raises {@code key}'s timestamp to the stamp of its newest committed version: the key timestamps live in this
     * part only, so after a rebuild of the CC module (partial restart, online update) they restart from the stamps
     * the storage kept, and a new writer still commits above every version it follows.
     */
    void observe(Key key, org.tebaldi.core.storage.VersionChain chain, int ccNode) {
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (v.committed()) {
                long s = v.stamp(ccNode);
                if (s > 0) {
                    ts.merge(key, s, Math::max);
                }
                return;
            }
        }
    }

    /** RW1: one more than the largest timestamp of {@code keys} (a lower bound on the commit timestamp). */
    long bound(List<Key> keys) {
        long b = claimFloor + 1;
        for (Key k : keys) {
            b = Math.max(b, ts.getOrDefault(k, 0L) + 1);
        }
        return b;
    }

    /** RW2: installs the commit timestamp {@code cts} on {@code keys} (never lowering a key's timestamp). */
    void install(List<Key> keys, long cts) {
        for (Key k : keys) {
            ts.merge(k, cts, Math::max);
        }
    }

    /** Whether a snapshot at {@code readTs} is below versions already pruned here (then it cannot be served). */
    boolean belowGcFloor(long readTs) {
        return readTs < gcFloor;
    }

    /**
     * Whether versions stamped up to the largest stamp of {@code written} may hide the versions they overwrote
     * from every snapshot still to come here: the server's clock is past that stamp by the staleness bound and
     * {@link #GC_SLACK_MICROS} (a snapshot starts at its coordinator's clock minus the staleness bound), and no
     * snapshot running here reads below it ({@code oldestLiveReadTs}). On true the floor rises to that stamp.
     */
    boolean gcSafe(List<Version> written, int ccNode, long oldestLiveReadTs) {
        long max = 0;
        for (Version v : written) {
            max = Math.max(max, v.stamp(ccNode));
        }
        long horizon = HybridClock.ofMicros(services.nowMicros() - stalenessMicros - GC_SLACK_MICROS);
        if (max > horizon || oldestLiveReadTs < max) {
            return false;
        }
        gcFloor = Math.max(gcFloor, max);
        return true;
    }

    /** A snapshot transaction reached this server (its read timestamp holds back garbage collection). */
    void snapshotLive(SsiDsPart.Snapshot s) {
        live.add(s);
    }

    /** A snapshot transaction ended here. */
    void snapshotEnded(SsiDsPart.Snapshot s) {
        live.remove(s);
    }

    /**
     * Queues a GC epoch; one timer, ticking every {@link #GC_TICK_MICROS} while epochs wait, confirms them in order
     * once {@link #gcSafe} holds (the oldest live snapshot looked up once per tick).
     */
    void confirmGc(List<Version> written, int ccNode, Runnable confirmed) {
        gcQueue.add(new Epoch(written, ccNode, confirmed));
        if (gcQueue.size() == 1) {
            services.schedule(GC_TICK_MICROS, this::gcTick);
        }
    }

    private void gcTick() {
        long oldest = Long.MAX_VALUE;
        for (SsiDsPart.Snapshot s : live) {
            oldest = Math.min(oldest, s.startTs);
        }
        while (!gcQueue.isEmpty() && gcSafe(gcQueue.peekFirst().written(), gcQueue.peekFirst().ccNode(), oldest)) {
            gcQueue.pollFirst().confirmed().run();
        }
        if (!gcQueue.isEmpty()) {
            services.schedule(GC_TICK_MICROS, this::gcTick);
        }
    }

    /** Keys with a timestamp (for tests). */
    int keys() {
        return ts.size();
    }
}
