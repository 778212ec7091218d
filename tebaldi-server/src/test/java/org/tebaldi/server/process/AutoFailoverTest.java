package org.tebaldi.server.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.replica.ReplicationOptions;
import org.tebaldi.server.zk.EmbeddedZooKeeper;
import org.tebaldi.server.zk.Failovers;
import org.tebaldi.server.zk.Membership;
import org.tebaldi.server.zk.ZkConnection;
import org.tebaldi.server.zk.ZkPaths;

/**
 * The once-only failover decision (docs/mechanisms.md "Replication", Promotion) against a real (embedded)
 * ZooKeeper, without node processes: three data servers are members; observers each run an {@link AutoFailover}
 * whose launcher records the promotion and registers the partition again (as the promoted process would). Two
 * observers of one primary's death promote exactly once, the same backup; a later observer (a restarted launcher)
 * reads the decision; a data server started after its failover (by a supervisor: external nodes) opens the decided
 * replica; a backup that left the membership before is never promoted; {@code failover: manual} leaves it to the
 * operator; another cluster incarnation sees no earlier decision.
 */
class AutoFailoverTest {
    private static final ZkPaths PATHS = new ZkPaths("failover-test");
    private static final ReplicationOptions FACTOR3 = new ReplicationOptions(3, ReplicationOptions.Mode.SYNC, null);
    private static final InetSocketAddress ADDR = new InetSocketAddress("127.0.0.1", 1);

    private EmbeddedZooKeeper server;
    private final List<AutoCloseable> open = new ArrayList<>();
    private Membership members;
    private final List<String> launched = new CopyOnWriteArrayList<>();

    private CuratorFramework client() {
        CuratorFramework c = ZkConnection.open(server.connectString(), 10_000, 15_000);
        open.add(0, c::close);
        return c;
    }

    /** An observer: its own session, membership view, and failover service (incarnation {@code config}). */
    private record Observer(AutoFailover failover, Membership membership, CountDownLatch seen) {
    }

    private Observer observer(boolean auto, int config, int expectedDowns) {
        CuratorFramework c = client();
        Membership m = new Membership(c, PATHS);
        open.add(0, m);
        AutoFailover f = new AutoFailover(FACTOR3, 3, m, new Failovers(c, PATHS, config), auto, (ds, host) -> {
            launched.add(ds + "<-ds" + host);
            members.register(ds, ADDR); // the promoted process registers
        });
        open.add(0, f);
        CountDownLatch seen = new CountDownLatch(expectedDowns);
        m.onDown(n -> {
            f.down(n);
            seen.countDown();
        });
        return new Observer(f, m, seen);
    }

    @BeforeEach
    void start() {
        server = EmbeddedZooKeeper.start();
        members = new Membership(client(), PATHS);
        open.add(0, members);
        for (int i = 0; i < 3; i++) {
            members.register(NodeId.ds(i), ADDR);
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        server.close();
    }

    private static void settle(Observer... obs) throws InterruptedException {
        for (Observer o : obs) {
            assertTrue(o.seen().await(10, TimeUnit.SECONDS), "the observer saw the membership losses");
            assertTrue(o.failover().awaitIdle(10_000), "the observer decided");
        }
    }

    @Test
    void twoObserversOfOneFailurePromoteOnceAndALaterObserverReadsTheDecision() throws Exception {
        Observer a = observer(true, 1, 1);
        Observer b = observer(true, 1, 1);
        members.evict(NodeId.ds(0));
        settle(a, b);
        assertEquals(List.of("ds0<-ds1"), launched, "one promotion, of the first backup");
        List<AutoFailover.Promotion> done = new ArrayList<>(a.failover().promotions());
        done.addAll(b.failover().promotions());
        assertEquals(1, done.size(), () -> "carried out once: " + done);
        assertEquals(1, done.get(0).host());
        assertEquals("runner", done.get(0).by());
        assertTrue(done.get(0).tookMillis() >= 0);

        Failovers later = new Failovers(client(), PATHS, 1); // e.g. a restarted launcher, a restarted ds0
        Failovers.Decision d = later.of(0);
        assertNotNull(d, "the decision is in ZooKeeper");
        assertEquals(1, d.host());
        assertEquals(done.get(0).tookMillis(), d.tookMillis(), "the take-over time is recorded with it");
        Failovers.Outcome again = later.decide(0, 2, "someone else");
        assertFalse(again.ours(), "a second decision for the same partition does not stand");
        assertEquals(1, again.decision().host());
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> a.failover().promote(0, 2));
        assertTrue(x.getMessage().contains("decided already"), x.getMessage());
        assertEquals(1, launched.size(), "nothing promoted twice");
        assertNull(new Failovers(client(), PATHS, 2).of(0), "another incarnation of the cluster sees no decision");
    }

    @Test
    void aDataServerStartingAfterItsFailoverOpensTheDecidedReplica() {
        Failovers f = new Failovers(client(), PATHS, 1);
        assertEquals(-1, f.replicaToOpen(0, -1), "no decision: its own store");
        assertEquals(2, f.replicaToOpen(0, 2), "--promote-from 2 with no decision records it");
        assertEquals(2, f.of(0).host());
        assertEquals(2, f.replicaToOpen(0, -1), "started again without the option (a supervisor): the replica");
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> f.replicaToOpen(0, 1));
        assertTrue(x.getMessage().contains("--promote-from 2"), x.getMessage());
        assertEquals(-1, f.replicaToOpen(1, -1), "other partitions are not affected");
    }

    @Test
    void aBackupThatLeftBeforeIsNeverPromoted() throws Exception {
        Observer a = observer(true, 1, 2);
        members.evict(NodeId.ds(1)); // ds1 fails first: ds2 (its first backup) takes it over
        assertTrue(a.failover().awaitIdle(10_000));
        long end = System.nanoTime() + 10_000_000_000L;
        while (launched.isEmpty() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        members.evict(NodeId.ds(0)); // ds0's first backup, ds1, restarted: its replica is stale
        settle(a);
        assertEquals(List.of("ds1<-ds2", "ds0<-ds2"), launched);
        assertEquals(2, a.failover().promotions().size());
        assertEquals(List.of(), a.failover().errors());
    }

    @Test
    void manualFailoverWaitsForTheOperator() throws Exception {
        Observer a = observer(false, 1, 2);
        members.evict(NodeId.ds(2));
        long end = System.nanoTime() + 10_000_000_000L;
        while (a.seen().getCount() > 1 && System.nanoTime() < end) { // ds2's loss reached the observer
            Thread.sleep(10);
        }
        assertTrue(a.failover().awaitIdle(10_000)); // and was handled
        assertEquals(List.of(), launched, "failover: manual promotes nothing by itself");
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> a.failover().promote(2, 2));
        assertTrue(x.getMessage().contains("keeps no replica"), x.getMessage()); // ds2's backups are ds0 and ds1
        members.evict(NodeId.ds(0));
        assertTrue(a.seen().await(10, TimeUnit.SECONDS));
        x = assertThrows(IllegalStateException.class, () -> a.failover().promote(2, 0));
        assertTrue(x.getMessage().contains("promote ds1 instead"), x.getMessage()); // ds0 left: its replica is stale
        assertEquals(List.of(), launched);
        a.failover().promote(2, 1);
        assertEquals(List.of("ds2<-ds1"), launched);
        assertEquals("operator", a.failover().promotions().get(0).by());
    }
}
