package org.tebaldi.cc.sundial;

import java.util.HashMap;

/**
 * Table-level leases at one data server (Sundial §4.3): per table, {@code tabWts} — the largest {@code wts} of its
 * tuples here — and {@code tabRts}, to which every tuple's lease is extended at once: a tuple's lease is {@code [wts,
 * max(rts, tabRts)]}. A table counts as read-only here until a transaction locks one of its tuples for writing; a
 * renewal of a read-only table's tuple advances {@code tabRts} to the commit timestamp plus a speculative margin
 * δ, which doubles with each table-level renewal (from 1 up to {@link #MAX_DELTA}), so later readers need no renewal.
 * Safe under writes: a write jumps past the effective lease ({@code max(rts, tabRts) + 1}), and {@code tabRts} does
 * not move while any tuple of the table is locked (a locked writer's commit timestamp was computed from it). Owned by
 * the data-server actor.
 */
final class TableLeases {
    /** Largest speculative extension δ of a read-only table's lease, in logical time units. */
    static final long MAX_DELTA = 1L << 20;

    private static final class Lease {
        long wts;
        long rts;
        long delta;
        int locked;
        boolean written;
    }

    private final boolean enabled;
    private final HashMap<Integer, Lease> tables = new HashMap<>();

    /** @param enabled whether tuples' leases are extended table-wide (otherwise every lease is per tuple) */
    TableLeases(boolean enabled) {
        this.enabled = enabled;
    }

    private Lease lease(int table) {
        return tables.computeIfAbsent(table, t -> new Lease());
    }

    /** The effective end of a lease ending at {@code rts} for a tuple of {@code table}. */
    long effective(int table, long rts) {
        Lease l = tables.get(table);
        return l == null ? rts : Math.max(rts, l.rts);
    }

    /**
     * Renews the whole table's lease to at least {@code cts} if the table is read-only here and no tuple of it is
     * locked; returns whether it did (if not, renew the tuple's lease).
     */
    boolean tryExtend(int table, long cts) {
        if (!enabled) {
            return false;
        }
        Lease l = lease(table);
        if (l.written || l.locked > 0) {
            return false;
        }
        l.rts = Math.max(l.rts, cts + l.delta);
        l.delta = Math.min(MAX_DELTA, Math.max(1, l.delta * 2));
        return true;
    }

    /** A transaction locked a tuple of {@code table} for writing: the table is no longer read-only. */
    void locked(int table) {
        Lease l = lease(table);
        l.locked++;
        l.written = true;
        l.delta = 0;
    }

    /** A lock on a tuple of {@code table} was released. */
    void unlocked(int table) {
        Lease l = tables.get(table);
        if (l != null && l.locked > 0) {
            l.locked--;
        }
    }

    /** A tuple of {@code table} was written at logical time {@code wts}. */
    void written(int table, long wts) {
        Lease l = lease(table);
        l.wts = Math.max(l.wts, wts);
    }

    /** The table's {@code wts} (−1 when table leases are off). */
    long wts(int table) {
        if (!enabled) {
            return -1;
        }
        Lease l = tables.get(table);
        return l == null ? 0 : l.wts;
    }

    /** The table's {@code rts} (−1 when table leases are off). */
    long rts(int table) {
        if (!enabled) {
            return -1;
        }
        Lease l = tables.get(table);
        return l == null ? 0 : l.rts;
    }

    /** Tuples of {@code table} locked here (for tests). */
    int lockedTuples(int table) {
        Lease l = tables.get(table);
        return l == null ? 0 : l.locked;
    }
}
