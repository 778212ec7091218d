package org.tebaldi.core.cc.ts;

import java.util.function.LongSupplier;

/**
 * A hybrid logical clock of DST's scalar timestamps (Decentralized Scalar Timestamps, NSDI 2021, §3.4): a 64-bit
 * timestamp whose 48 high-order bits are the physical clock in milliseconds and whose 16 low-order bits are a
 * logical counter. Timestamps are compared as plain longs; "one more than {@code ts}" ({@code ts + 1}) bumps the
 * logical part and carries into the physical part when the counter overflows, as the paper's {@code max(ts+1, TS)}.
 * One clock per CC part on a node (the node's clock, {@link org.tebaldi.core.cc.CcServices#nowMicros}, skewed per
 * node in simulation); single-threaded, like the actor that owns it.
 */
public final class HybridClock {
    /** Bits of the logical part. */
    public static final int LOGICAL_BITS = 16;
    /** Low bits of a {@link #unique} timestamp that name its node (at most 2^10 = 1024 coordinators). */
    public static final int SLOT_BITS = 10;

    private final LongSupplier micros;
    /** The largest timestamp this clock issued or observed. */
    private long last;

    /** @param micros the node's clock, µs */
    public HybridClock(LongSupplier micros) {
        this.micros = micros;
    }

    /** The timestamp of physical time {@code micros} µs with logical part 0 (negative times clamp to 0). */
    public static long ofMicros(long micros) {
        return Math.max(0, micros / 1000) << LOGICAL_BITS;
    }

    /** The physical part of {@code ts}, µs (millisecond resolution). */
    public static long physicalMicros(long ts) {
        return (ts >>> LOGICAL_BITS) * 1000;
    }

    /** The logical part of {@code ts}. */
    public static long logical(long ts) {
        return ts & ((1L << LOGICAL_BITS) - 1);
    }

    /**
     * The local timestamp now (DST's LocalTS, RO1): the physical clock with logical part 0, or the largest
     * timestamp seen if the clock is behind it; never below an earlier answer.
     */
    public long now() {
        last = Math.max(last, ofMicros(micros.getAsLong()));
        return last;
    }

    /** A commit timestamp above {@code lowerBound} and the local time (DST's RW1, {@code max(ts+1, LocalTS)}). */
    public long commit(long lowerBound) {
        long ts = Math.max(lowerBound, now());
        last = ts;
        return ts;
    }

    /**
     * A timestamp no other node's clock issues, above every timestamp this clock issued or observed: the next
     * timestamp {@code max(last + 1, LocalTS)} rounded up to the next one whose lowest {@code SLOT_BITS} bits are
     * {@code slot} (so the logical part keeps {@code 16 - SLOT_BITS} bits of counter per millisecond and carries into
     * the physical part beyond it). For mechanisms that order by start timestamps and need them distinct (TSO).
     *
     * @param slot this node's slot, 0 ≤ slot &lt; 2^{@link #SLOT_BITS}
     * @throws IllegalArgumentException if {@code slot} is out of range (more coordinators than slots)
     */
    public long unique(int slot) {
        if (slot < 0 || slot >= 1 << SLOT_BITS) {
            throw new IllegalArgumentException("node slot " + slot + " out of range: DST's unique timestamps carry "
                    + "the coordinator's index in " + SLOT_BITS + " bits (at most " + (1 << SLOT_BITS)
                    + " coordinators)");
        }
        long t = Math.max(last + 1, ofMicros(micros.getAsLong()));
        long mask = (1L << SLOT_BITS) - 1;
        long u = (t & ~mask) | slot;
        if (u < t) {
            u += 1L << SLOT_BITS;
        }
        last = u;
        return u;
    }

    /** Records a timestamp learned from another node (the receive rule of a hybrid logical clock). */
    public void observe(long ts) {
        last = Math.max(last, ts);
    }
}
