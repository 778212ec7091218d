package org.tebaldi.cc.sundial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;

/** The coordinator's cache: LRU, the three policies, the hybrid votes, table leases (Sundial §4.2–4.3). */
class RemoteCacheTest {
    private static final Key A = Key.of(1, 0);
    private static final Key B = Key.of(1, 1);
    private static final Key C = Key.of(1, 2);

    private static RemoteCache.Entry entry(long writer, long wts, long rts) {
        return new RemoteCache.Entry(null, writer, 1, wts, rts);
    }

    @Test
    void leastRecentlyUsedEntriesGoFirst() {
        RemoteCache c = new RemoteCache(RemoteCache.Policy.ALWAYS_REUSE, 2, 0.8);
        c.offer(A, entry(1, 0, 0));
        c.offer(B, entry(2, 0, 0));
        c.lookup(A);
        c.offer(C, entry(3, 0, 0));
        assertEquals(2, c.size());
        assertNull(c.lookup(B), "B was least recently used");
        assertEquals(1, c.lookup(A).writer);
        assertEquals(3, c.counters().get("sundial.cache.lookups"));
        assertEquals(2, c.counters().get("sundial.cache.hits"));
    }

    @Test
    void anOlderVersionDoesNotReplaceANewerOne() {
        RemoteCache c = new RemoteCache(RemoteCache.Policy.ALWAYS_REUSE, 10, 0.8);
        c.offer(A, entry(2, 5, 5));
        c.offer(A, entry(1, 3, 4));
        assertEquals(2, c.lookup(A).writer);
        c.offer(A, entry(2, 5, 9));
        assertEquals(9, c.lookup(A).rts, "the same version's lease grows");
        c.committedWrite(A, null, 7, 1, 12);
        assertEquals(7, c.lookup(A).writer);
        assertEquals(12, c.lookup(A).wts);
        c.committedWrite(B, null, 7, 1, 12);
        assertNull(c.lookup(B), "a write does not bring an uncached key into the cache");
    }

    @Test
    void aFenceDropsOlderVersionsOnly() {
        RemoteCache c = new RemoteCache(RemoteCache.Policy.ALWAYS_REUSE, 10, 0.8);
        c.offer(A, entry(1, 3, 4));
        c.offer(B, entry(2, 5, 5));
        c.offer(C, entry(3, 9, 9));
        c.settled(A, 4, 1, 5);
        assertNull(c.lookup(A), "older than the settled version");
        c.settled(B, 2, 1, 5);
        assertEquals(2, c.lookup(B).writer, "the settled version itself stays");
        c.settled(C, 8, 1, 7);
        assertEquals(3, c.lookup(C).writer, "a newer version stays");
        c.evictIf(k -> k.equals(B));
        assertNull(c.lookup(B));
        assertEquals(1, c.size());
    }

    @Test
    void policies() {
        assertTrue(new RemoteCache(RemoteCache.Policy.ALWAYS_REUSE, 1, 0.8).reuse(false));
        assertFalse(new RemoteCache(RemoteCache.Policy.ALWAYS_REQUEST, 1, 0.8).reuse(true));
        RemoteCache h = new RemoteCache(RemoteCache.Policy.HYBRID, 1, 0.8);
        assertTrue(h.reuse(false), "the hybrid policy starts by reusing");
        for (int i = 0; i < RemoteCache.MIN_VOTES; i++) {
            h.vote(i % 2 == 0);
        }
        assertFalse(h.reuseMode(), "half the votes for the cache is below the threshold");
        assertFalse(h.reuse(false));
        assertTrue(h.reuse(true), "a lease that already covers the transaction is always reused");
        for (int i = 0; i < 200; i++) {
            h.vote(true);
        }
        assertTrue(h.reuseMode(), "mostly up to date: reuse again");
    }

    @Test
    void votesAreHalvedSoThePolicyFollowsTheWorkload() {
        RemoteCache h = new RemoteCache(RemoteCache.Policy.HYBRID, 1, 0.8);
        for (int i = 0; i < 5 * RemoteCache.VOTE_WINDOW; i++) {
            h.vote(true);
        }
        int n = 0;
        while (h.reuseMode() && n < 10 * RemoteCache.VOTE_WINDOW) {
            h.vote(false);
            n++;
        }
        assertTrue(n < RemoteCache.VOTE_WINDOW, "switched to requesting after " + n + " votes against the cache");
    }

    @Test
    void renewalsVoteAndAFailedOneEvicts() {
        RemoteCache h = new RemoteCache(RemoteCache.Policy.HYBRID, 10, 0.8);
        h.offer(A, entry(1, 0, 2));
        h.renewed(A, 1, 1, 8);
        assertEquals(8, h.lookup(A).rts);
        h.renewed(A, 2, 1, 20);
        assertEquals(8, h.lookup(A).rts, "a renewal of another version does not touch the entry");
        h.renewalFailed(A);
        assertNull(h.lookup(A));
        assertEquals(3, h.counters().get("sundial.cache.renewals"));
        assertEquals(1, h.counters().get("sundial.cache.renewalFailures"));
    }

    @Test
    void aTableLeaseCoversEntriesThatWereCurrentWhenItWasSet() {
        RemoteCache c = new RemoteCache(RemoteCache.Policy.ALWAYS_REUSE, 10, 0.8);
        RemoteCache.Entry current = entry(1, 0, 6);
        RemoteCache.Entry stale = entry(2, 0, 3);
        c.tableLease(0, 1, 5, 40);
        assertEquals(40, c.rts(0, A, current), "rts 6 >= tabWts 5: still the latest when the table lease was set");
        assertEquals(3, c.rts(0, A, stale), "rts 3 < tabWts 5: may have been overwritten before");
        assertEquals(6, c.rts(1, A, current), "another data server's table lease does not apply");
        c.tableLease(0, 1, 4, 30);
        assertEquals(40, c.rts(0, A, current), "an older table lease does not replace a newer one");
        c.clear();
        assertEquals(6, c.rts(0, A, current));
    }
}
