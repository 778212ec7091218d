package org.tebaldi.server.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.tebaldi.server.epoch.DecisionLog;

/**
 * The epoch service's commit records in ZooKeeper (embedded server on loopback): a record's completion arrives only
 * after a write that holds it, many records coalesce into few writes, the set a later term reads is the newest
 * written (records and forgets), and clusters do not see each other's records.
 */
class ZkDecisionLogTest {
    private static SortedSet<Long> set(long... epochs) {
        SortedSet<Long> s = new TreeSet<>();
        for (long e : epochs) {
            s.add(e);
        }
        return s;
    }

    private static void await(List<Object> got, int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (got.size() < n && System.nanoTime() < end) {
            Thread.sleep(5);
        }
    }

    @Test
    void recordsAreReadByTheNextTermAndForgottenOnceAcknowledged() throws Exception {
        try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start();
             CuratorFramework zk = ZkConnection.open(server.connectString(), 5_000, 10_000)) {
            List<Object> got = new CopyOnWriteArrayList<>();
            ZkDecisionLog first = new ZkDecisionLog(zk, new ZkPaths("a"), got::add);
            assertTrue(first.pending().isEmpty(), "a new cluster has no records");
            SortedSet<Long> pending = new TreeSet<>();
            for (long e = 1; e <= 200; e++) {
                pending.add(1L << 32 | e);
                first.recordCommit(1, 1L << 32 | e, pending);
            }
            await(got, 200);
            assertEquals(200, got.size(), "every record completes");
            for (int i = 0; i < 200; i++) {
                assertEquals(new DecisionLog.Recorded(1, 1L << 32 | (i + 1)), got.get(i), "completions in order");
            }
            assertEquals(pending, new ZkDecisionLog(zk, new ZkPaths("a"), got::add).pending(),
                    "the next term reads every record");
            first.forget(set(1L << 32 | 200));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            SortedSet<Long> seen;
            do {
                seen = ZkDecisionLog.decode(zk.getData().forPath(new ZkPaths("a").epoch("decisions")));
            } while (!seen.equals(set(1L << 32 | 200)) && System.nanoTime() < end);
            assertEquals(set(1L << 32 | 200), seen, "forgotten records are gone");
            assertEquals(set(1L << 32 | 200), new ZkDecisionLog(zk, new ZkPaths("a"), got::add).pending());
            assertTrue(new ZkDecisionLog(zk, new ZkPaths("b"), got::add).pending().isEmpty(),
                    "another cluster's records are its own");
        }
    }

    @Test
    void theEncodingRoundTrips() {
        SortedSet<Long> s = set(5L << 32 | 1, 5L << 32 | 99, 6L << 32 | 3);
        assertEquals(s, ZkDecisionLog.decode(ZkDecisionLog.encode(s)));
        assertTrue(ZkDecisionLog.decode(new byte[0]).isEmpty());
        assertTrue(ZkDecisionLog.decode(null).isEmpty());
    }
}
