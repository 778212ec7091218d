package org.tebaldi.core.cc.lease;

import java.util.HashMap;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.storage.Version;

/**
 * Logical leases {@code [wts, rts]} of committed versions at one lease-based CC node of one data server (Yu et
 * al., SIGMOD 2016; Yu et al., VLDB 2018, §3.1): a version may be read at any logical time in its lease,
 * and a new version of its key may only be written at a time after the lease's end. The lease lives on the version
 * itself, as the node's stamp ({@code wts}) and second stamp ({@code rts}), so it follows the version through
 * garbage collection and moves of the chain. Shared infrastructure for the lease-based mechanisms; owned by one
 * data-server actor.
 *
 * <p><b>Versions without a lease.</b> A version no part of this node stamped gets one the first time it is looked
 * at: {@code [0, 0]} for a version of the initial load or one re-based by a partial restart or recovery
 * (dissertation §4.5.4: a virtual transaction below the root wrote it, before every transaction of this CC module);
 * {@code [F+1, F+1]} for a committed version of another group (this node runs under a parent), where {@code F} is
 * the largest timestamp this store ever handed out — the version starts after every lease of the node, as Yu et
 * al. (VLDB 2018, §3.5) restart every lease after recovery at an upper bound of the old ones.
 *
 * <p><b>Absent keys.</b> A key with no committed version has the lease {@code [0, absentRts(key)]}: reading the
 * absence extends it like a version's, and the first insert is written after it.
 */
public final class LeaseStore {
    private final int node;
    private final HashMap<Key, Long> absent = new HashMap<>();
    private long floor;

    /** @param nodeId the CC-tree node whose stamps hold the leases */
    public LeaseStore(int nodeId) {
        this.node = nodeId;
    }

    /**
     * Whether a committed version written by this node's group (a transaction of leaf {@code node}'s subtree, as
     * {@link Version#writerLeaf}) lies above {@code own} in {@code chain}: the write {@code own} would be installed
     * below a newer committed one of the same group.
     */
    public boolean groupCommittedAbove(org.tebaldi.core.storage.VersionChain chain, Version own) {
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (v == own) {
                return false;
            }
            if (v.committed() && v.writerLeaf() == node) {
                return true;
            }
        }
        return false;
    }

    private void ensure(Version v) {
        if (v.stamp(node) == Version.NO_STAMP) {
            long base = v.writerLeaf() < 0 ? 0 : floor + 1;
            v.setStamp(node, base);
            v.setAuxStamp(node, base);
            floor = Math.max(floor, base);
        }
    }

    /** The logical time {@code v} was written ({@code wts}). */
    public long wts(Version v) {
        ensure(v);
        return v.stamp(node);
    }

    /** The end of {@code v}'s lease ({@code rts}): the latest logical time it may be read at. */
    public long rts(Version v) {
        ensure(v);
        return v.auxStamp(node);
    }

    /** Extends {@code v}'s lease to at least {@code ts} (leases only grow). */
    public void extend(Version v, long ts) {
        ensure(v);
        if (ts > v.auxStamp(node)) {
            v.setAuxStamp(node, ts);
            floor = Math.max(floor, ts);
        }
    }

    /** A committed write at logical time {@code ts}: {@code v}'s lease becomes {@code [ts, ts]}. */
    public void install(Version v, long ts) {
        v.setStamp(node, ts);
        v.setAuxStamp(node, ts);
        floor = Math.max(floor, ts);
    }

    /** The end of the lease of {@code key}'s absence (it has no committed version): 0 unless a reader extended it. */
    public long absentRts(Key key) {
        Long r = absent.get(key);
        return r == null ? 0 : r;
    }

    /** Extends the lease of {@code key}'s absence to at least {@code ts}. */
    public void extendAbsent(Key key, long ts) {
        if (ts > absentRts(key)) {
            absent.put(key, ts);
            floor = Math.max(floor, ts);
        }
    }

    /** {@code key} got a committed version: the lease of its absence is no longer needed. */
    public void clearAbsent(Key key) {
        absent.remove(key);
    }

    /** Number of absent keys whose lease is kept (for tests and leak checks). */
    public int absentKeys() {
        return absent.size();
    }

    /**
     * A lease this store does not keep (e.g. a table-level lease) was handed out up to {@code ts}: versions
     * stamped later start after it.
     */
    public void raiseFloor(long ts) {
        floor = Math.max(floor, ts);
    }

    /** The largest timestamp this store handed out: every lease it knows ends at or before it. */
    public long floor() {
        return floor;
    }
}
