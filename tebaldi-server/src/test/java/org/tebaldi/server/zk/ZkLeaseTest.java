package org.tebaldi.server.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

/**
 * A lease on a ZooKeeper session (docs/reliability.md, "No split brain"): half the negotiated session timeout; held
 * while the server answers (it is renewed past its first length); once the server is gone the lease runs out before
 * the session timeout has passed since the last answer — the earliest the cluster could declare the node dead.
 */
class ZkLeaseTest {
    @Test
    void renewedWhileTheServerAnswersAndOutBeforeTheSessionCouldExpire() throws Exception {
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start();
        CuratorFramework zk = ZkConnection.open(server.connectString(), 4_000, 15_000);
        try (ZkLease lease = new ZkLease(zk)) {
            assertEquals(ZkConnection.negotiated(zk) / 2, lease.lengthMillis());
            long until = System.nanoTime() + 3 * lease.lengthMillis() * 1_000_000L;
            while (System.nanoTime() < until) { // three lease lengths: held throughout, so it was renewed
                assertTrue(lease.held(), "the server answers: the lease is renewed");
                Thread.sleep(50);
            }
            long stopped = System.nanoTime();
            server.close();
            while (lease.held()) {
                Thread.sleep(10);
            }
            long outMillis = (System.nanoTime() - stopped) / 1_000_000;
            assertTrue(outMillis < ZkConnection.negotiated(zk),
                    "the lease ran out " + outMillis + " ms after the server stopped: before the session timeout");
            Thread.sleep(200);
            assertFalse(lease.held(), "not renewed without a server");
        } finally {
            zk.close();
        }
    }
}
