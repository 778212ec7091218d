package org.tebaldi.server.zk;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.server.node.Lease;

/**
 * A node's lease on its ZooKeeper session (docs/reliability.md, "No split brain"): every quarter of the lease an
 * asynchronous read goes to the server, its send time noted; when it succeeds on the node's first session, the
 * lease lasts until that send time plus the lease length. The server heard the read at or after its send time, so it
 * cannot expire the session before send time + session timeout; with a lease of half the negotiated session timeout
 * the lease runs out at least half a session before the cluster can declare the node dead (and promote a backup),
 * whatever the network did to the read or its answer. A session that was lost, or replaced by a new one after
 * expiring, never renews the lease again. One scheduler thread of its own (the host's, not an actor's).
 */
public final class ZkLease implements Lease, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZkLease.class);

    private final CuratorFramework zk;
    private final long lengthNanos;
    private final long sessionId;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tebaldi-lease");
        t.setDaemon(true);
        return t;
    });
    private volatile long validUntil;
    private volatile boolean lost;

    /**
     * Starts renewing; the lease is held from now (the session was just confirmed by the connection).
     *
     * @param zk a connected client (its negotiated session timeout sets the lease: half of it)
     * @throws IllegalStateException if the client is not connected
     */
    public ZkLease(CuratorFramework zk) {
        this.zk = zk;
        int session = ZkConnection.negotiated(zk);
        if (session <= 0) {
            throw new IllegalStateException("a lease needs a connected ZooKeeper session");
        }
        this.lengthNanos = TimeUnit.MILLISECONDS.toNanos(session / 2);
        this.sessionId = session(zk);
        this.validUntil = System.nanoTime() + lengthNanos;
        zk.getConnectionStateListenable().addListener((c, state) -> {
            if (state == ConnectionState.LOST) {
                lost = true;
            }
        });
        long period = Math.max(1, lengthNanos / 4);
        timer.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.NANOSECONDS);
    }

    private static long session(CuratorFramework zk) {
        try {
            return zk.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return -1;
        }
    }

    private void renew() {
        if (lost) {
            return;
        }
        long sent = System.nanoTime();
        try {
            zk.checkExists().inBackground((client, event) -> {
                if (event.getResultCode() == 0 && !lost && session(client) == sessionId) {
                    long until = sent + lengthNanos;
                    if (until - validUntil > 0) {
                        validUntil = until;
                    }
                }
            }).forPath("/");
        } catch (Exception e) {
            LOG.debug("lease renewal not sent: {}", e.toString());
        }
    }

    @Override
    public boolean held() {
        return !lost && validUntil - System.nanoTime() > 0;
    }

    @Override
    public long lengthMillis() {
        return TimeUnit.NANOSECONDS.toMillis(lengthNanos);
    }

    /** Stops renewing (the lease runs out). */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
