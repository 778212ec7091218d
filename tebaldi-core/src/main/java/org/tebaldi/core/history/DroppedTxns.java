package org.tebaldi.core.history;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

/**
 * The ids of the transactions the {@link IncrementalChecker} dropped in its last {@link #KEPT_PASSES} to twice as
 * many passes (two generations), those that aborted with their type. A late duplicate outcome of one is not
 * counted again; a late operation of an aborted one brings it back aborted (docs/architecture.md,
 * "Verification"). Not thread-safe.
 */
final class DroppedTxns {
    /** Passes a generation of dropped ids is kept before it becomes the older one. */
    static final int KEPT_PASSES = 50;

    private LongOpenHashSet now = new LongOpenHashSet();
    private LongOpenHashSet before = new LongOpenHashSet();
    private Long2ObjectOpenHashMap<String> abortedNow = new Long2ObjectOpenHashMap<>();
    private Long2ObjectOpenHashMap<String> abortedBefore = new Long2ObjectOpenHashMap<>();

    /** Remembers that {@code t} was dropped. */
    void add(HeldTxn t) {
        now.add(t.id);
        if (t.status == HeldTxn.ABORTED) {
            abortedNow.put(t.id, t.type);
        }
    }

    /** Whether {@code id} was dropped recently. */
    boolean contains(long id) {
        return now.contains(id) || before.contains(id);
    }

    /** Whether {@code id} was dropped recently after it aborted. */
    boolean aborted(long id) {
        return abortedNow.containsKey(id) || abortedBefore.containsKey(id);
    }

    /** The type of {@code id}, dropped recently after it aborted (null if it had none). */
    String abortedType(long id) {
        return abortedNow.containsKey(id) ? abortedNow.get(id) : abortedBefore.get(id);
    }

    /** Called after pass {@code pass}: every {@link #KEPT_PASSES} passes the older generation is forgotten. */
    void passed(int pass) {
        if (pass % KEPT_PASSES == 0) {
            before = now;
            now = new LongOpenHashSet();
            abortedBefore = abortedNow;
            abortedNow = new Long2ObjectOpenHashMap<>();
        }
    }
}
