package org.tebaldi.cc.sundial;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * A coordinator's cache of remote reads (Sundial §4): committed versions with the lease they were read with, least
 * recently used evicted past {@code capacity} entries; the table leases learnt from each data server (§4.3); and the
 * caching policy (§4.2) — always reuse a cached version, always request the data server (the cache then only
 * votes), or hybrid: reuse while the share of votes for the cache, {@code voteCache / (voteCache + voteRemote)},
 * exceeds the threshold (0.8 in the paper), and always when the cached lease already covers the transaction's
 * commit timestamp so far. {@code voteCache} counts remote checks that found the cached version still latest and
 * successful renewals of cached reads; {@code voteRemote} checks that found another version and failed renewals.
 * Votes are halved once they add up to {@link #VOTE_WINDOW}, so the policy follows the workload. Coordinator thread
 * only, except {@link #counters}.
 */
final class RemoteCache {
    /** The caching policy (option {@code cache}). */
    enum Policy {
        ALWAYS_REUSE, ALWAYS_REQUEST, HYBRID
    }

    /** Votes kept before both counts are halved. */
    static final int VOTE_WINDOW = 1000;
    /** Votes needed before the hybrid policy trusts the ratio (it starts by reusing, as the paper's code does). */
    static final int MIN_VOTES = 16;

    /** A cached committed version: row (null for a delete), writer and write sequence number, lease. */
    static final class Entry {
        final Row row;
        final long writer;
        final int writeSeq;
        final long wts;
        long rts;

        Entry(Row row, long writer, int writeSeq, long wts, long rts) {
            this.row = row;
            this.writer = writer;
            this.writeSeq = writeSeq;
            this.wts = wts;
            this.rts = rts;
        }

        boolean same(long w, int seq) {
            return writer == w && writeSeq == seq;
        }
    }

    private final Policy policy;
    private final double threshold;
    private final LinkedHashMap<Key, Entry> entries;
    /** (data server, table) → {tabWts, tabRts}. */
    private final Map<Long, long[]> tableLeases = new HashMap<>();
    private long voteCache;
    private long voteRemote;
    private final LongAdder lookups = new LongAdder();
    private final LongAdder hits = new LongAdder();
    private final LongAdder served = new LongAdder();
    private final LongAdder renewals = new LongAdder();
    private final LongAdder renewalFailures = new LongAdder();

    /**
     * @param capacity  entries kept, at least 1
     * @param threshold the hybrid policy's share of cache votes above which it reuses, in [0, 1]
     */
    RemoteCache(Policy policy, int capacity, double threshold) {
        this.policy = policy;
        this.threshold = threshold;
        this.entries = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
                return size() > capacity;
            }
        };
    }

    /** A lookup for a read: the cached entry (counted as a hit) or null (a miss). */
    Entry lookup(Key key) {
        lookups.increment();
        Entry e = entries.get(key);
        if (e != null) {
            hits.increment();
        }
        return e;
    }

    /**
     * Whether a hit is answered from the cache; {@code fresh}: the cached lease covers the transaction's commit
     * timestamp so far (no renewal can be needed for it yet).
     */
    boolean reuse(boolean fresh) {
        return switch (policy) {
            case ALWAYS_REUSE -> true;
            case ALWAYS_REQUEST -> false;
            case HYBRID -> fresh || reuseMode();
        };
    }

    /** The hybrid policy's current mode: reuse (true) or request (false). */
    boolean reuseMode() {
        long n = voteCache + voteRemote;
        return n < MIN_VOTES || (double) voteCache / n > threshold;
    }

    /** A hit was answered from the cache. */
    void served() {
        served.increment();
    }

    /** A vote for reading from the cache (true) or from the data server (false). */
    void vote(boolean forCache) {
        if (forCache) {
            voteCache++;
        } else {
            voteRemote++;
        }
        if (voteCache + voteRemote >= VOTE_WINDOW) {
            voteCache /= 2;
            voteRemote /= 2;
        }
    }

    /** A version read at its data server: kept unless the cache holds a newer one (a larger {@code wts}). */
    void offer(Key key, Entry e) {
        Entry old = entries.get(key);
        if (old != null && old.same(e.writer, e.writeSeq)) {
            old.rts = Math.max(old.rts, e.rts);
        } else if (old == null || e.wts > old.wts) {
            entries.put(key, e);
        }
    }

    /**
     * A transaction of this coordinator committed a write of {@code key} at {@code cts} (Alg. 3, l. 5–6): a cached
     * copy is replaced by the new version, {@code [cts, cts]}; an uncached key stays uncached.
     */
    void committedWrite(Key key, Row row, long writer, int writeSeq, long cts) {
        Entry old = entries.get(key);
        if (old != null && cts > old.wts) {
            entries.put(key, new Entry(row, writer, writeSeq, cts, cts));
        }
    }

    /** A renewal of a cached read's lease succeeded: the version's lease now ends at {@code rts}. */
    void renewed(Key key, long writer, int writeSeq, long rts) {
        renewals.increment();
        Entry e = entries.get(key);
        if (e != null && e.same(writer, writeSeq)) {
            e.rts = Math.max(e.rts, rts);
        }
        vote(true);
    }

    /** A renewal of a cached read's lease failed: the entry goes (Alg. 2, l. 8). */
    void renewalFailed(Key key) {
        renewals.increment();
        renewalFailures.increment();
        entries.remove(key);
        vote(false);
    }

    /**
     * A GC epoch settles {@code writer}'s version of {@code key} (its {@code writeSeq}-th write), whose lease starts at
     * {@code wts}, at its data server (a {@link SundialMessages.Fence}): a cached version older than it goes — any
     * other version with a {@code wts} not above it (a later version's {@code wts} exceeds the lease of the one it
     * overwrote) — so that no read served here is ordered before it any more.
     */
    void settled(Key key, long writer, int writeSeq, long wts) {
        Entry e = entries.get(key);
        if (e != null && !e.same(writer, writeSeq) && e.wts <= wts) {
            entries.remove(key);
        }
    }

    /** Drops every entry whose key {@code drop} accepts (a fence for every version of a data server). */
    void evictIf(java.util.function.Predicate<Key> drop) {
        entries.keySet().removeIf(drop);
    }

    /** The table lease {@code [tabWts, tabRts]} of {@code table} at data server {@code ds} (ignored if negative). */
    void tableLease(int ds, int table, long tabWts, long tabRts) {
        if (tabRts < 0) {
            return;
        }
        long[] l = tableLeases.computeIfAbsent(((long) ds << 32) | (table & 0xffffffffL), x -> new long[]{0, 0});
        if (tabRts > l[1] || (tabRts == l[1] && tabWts > l[0])) {
            l[0] = tabWts;
            l[1] = tabRts;
        }
    }

    /**
     * The end of {@code e}'s lease with its table's lease: a cached version whose {@code rts} is at least the table's
     * {@code wts} was still the latest when the table lease was set, so it is valid until the table's {@code rts}
     * (§4.3).
     */
    long rts(int ds, Key key, Entry e) {
        long[] l = tableLeases.get(((long) ds << 32) | (key.table() & 0xffffffffL));
        return l != null && e.rts >= l[0] ? Math.max(e.rts, l[1]) : e.rts;
    }

    /** Forgets everything (a recovery round rolled the data servers back). */
    void clear() {
        entries.clear();
        tableLeases.clear();
    }

    /** Entries held. */
    int size() {
        return entries.size();
    }

    /** The prefix of this cache's counters (labelled by {@link Sundial#counterGroups}). */
    static final String PREFIX = "sundial.cache.";

    /** Lookups, hits, reads served, renewals and failed renewals of cached reads (thread-safe). */
    Map<String, Long> counters() {
        Map<String, Long> m = new TreeMap<>();
        m.put(PREFIX + "lookups", lookups.sum());
        m.put(PREFIX + "hits", hits.sum());
        m.put(PREFIX + "served", served.sum());
        m.put(PREFIX + "renewals", renewals.sum());
        m.put(PREFIX + "renewalFailures", renewalFailures.sum());
        return m;
    }
}
