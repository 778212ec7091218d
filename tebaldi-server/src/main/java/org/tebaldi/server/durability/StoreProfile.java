package org.tebaldi.server.durability;

import org.tebaldi.core.runtime.cost.HandlerProfile;

/**
 * What a {@link RocksLogStore}'s writer thread spent per write group while profiled ({@link RocksLogStore#profile}),
 * for {@code scripts/tebaldi calibrate-durability} (docs/simulation.md, "Durability"): unsynced groups as samples of
 * (records, the writer thread's CPU time, ns) — fitted into {@code groupMicros + perRecordMicros × records}; synced
 * groups' count and the time they took beyond their CPU (the sync's wait). Written by writer threads, read after
 * profiling stopped; synchronized.
 */
public final class StoreProfile {
    private final HandlerProfile.Sums unsynced = new HandlerProfile.Sums();
    private long syncs;
    private double syncWaitNanos;

    /** One group of {@code records} records, synced or not, that took {@code cpuNanos} of CPU and {@code wallNanos}. */
    synchronized void group(int records, boolean sync, long cpuNanos, long wallNanos) {
        if (sync) {
            syncs++;
            syncWaitNanos += Math.max(0, wallNanos - cpuNanos);
        } else {
            unsynced.sample(records, cpuNanos);
        }
    }

    /** A copy of the unsynced groups' samples: units = records, ns = the writer thread's CPU time. */
    public synchronized HandlerProfile.Sums unsynced() {
        HandlerProfile.Sums c = new HandlerProfile.Sums();
        c.addAll(unsynced);
        return c;
    }

    /** Synced groups seen. */
    public synchronized long syncs() {
        return syncs;
    }

    /** Mean time a synced group took beyond its CPU time, µs (0 without one). */
    public synchronized double syncWaitMicros() {
        return syncs == 0 ? 0 : syncWaitNanos / syncs / 1000;
    }
}
