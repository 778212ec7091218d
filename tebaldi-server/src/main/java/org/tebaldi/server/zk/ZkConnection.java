package org.tebaldi.server.zk;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens Curator clients with the session and connection timeouts Tebaldi uses (docs/cluster.md, "Process mode").
 *
 * <p>A session survives pauses shorter than its timeout: the ZooKeeper client pings every third of the timeout and
 * reconnects after two thirds of it without an answer; while disconnected Curator reports
 * {@link ConnectionState#SUSPENDED}, which is not a failure — the session (and every ephemeral znode, hence the
 * node's membership) lives on on the server until the timeout runs out, and the client reconnects to the same
 * session ({@link ConnectionState#RECONNECTED}). Only {@link ConnectionState#LOST} (the server expired the session,
 * or the client stayed suspended for the whole timeout) means the cluster has declared this process dead. Recipes
 * (leader latches, caches) are built with {@link SessionConnectionStateErrorPolicy}: a leader keeps its role while
 * suspended and gives it up on LOST only.
 */
public final class ZkConnection {
    private static final Logger LOG = LoggerFactory.getLogger(ZkConnection.class);

    /**
     * Default session timeout of a node, ms ({@code cluster.sessionTimeout}): a node that ZooKeeper does not hear
     * for this long is declared dead. 15 s rides out GC pauses, a node stopped for seconds and CPU starvation on a
     * busy machine (measured on 2 cores at a load average of about 23, docs/cluster.md "Process mode": stop-the-world pauses
     * up to 3.2 s in a data server during the load and 4.3 s in the runner, which hosts the embedded ZooKeeper
     * server, while it collected the history; the client reconnects only after 2/3 of the timeout without an
     * answer); a node process that the runner launched and that exits is declared dead at once
     * ({@link Membership#evict}), whatever the timeout.
     */
    public static final int DEFAULT_SESSION_MILLIS = 15_000;
    /** Shortest session timeout accepted, ms (the embedded server's tick is 500 ms; its minimum 1 s). */
    public static final int MIN_SESSION_MILLIS = 2_000;
    /** Longest session timeout accepted, ms. */
    public static final int MAX_SESSION_MILLIS = 600_000;
    /**
     * Session timeout of the runner (client endpoints, control node), ms, at least: nothing waits for the runner's
     * death (its nodes exit when their standard input closes), so it is long enough for the runner's own GC pauses.
     */
    public static final int RUNNER_SESSION_MILLIS = 30_000;

    private ZkConnection() {
    }

    /**
     * Connects and waits for the connection; logs every change of connection state, and a warning if the server
     * granted a shorter session than asked (its {@code maxSessionTimeout} is lower).
     *
     * @param connectString {@code host:port[,host:port...]}
     * @param sessionMillis session timeout, ms (the server clamps it to its min/max)
     * @param waitMillis    how long to wait for the first connection, ms
     * @throws IllegalStateException naming the ensemble if no connection came up in time
     */
    public static CuratorFramework open(String connectString, int sessionMillis, long waitMillis) {
        return open(connectString, sessionMillis, waitMillis, null);
    }

    /**
     * As {@link #open(String, int, long)}, authenticated with a cluster's digest credentials: the client sends them
     * on every (re)connection and creates the cluster's znodes with their ACL (docs/cluster.md, "Security").
     *
     * @param auth the cluster's credentials, or null for an unauthenticated client creating open znodes
     * @throws IllegalStateException naming the ensemble if no connection came up in time
     */
    public static CuratorFramework open(String connectString, int sessionMillis, long waitMillis, ZkAuth auth) {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(sessionMillis).connectionTimeoutMs((int) Math.min(waitMillis, sessionMillis))
                .connectionStateErrorPolicy(new SessionConnectionStateErrorPolicy())
                .retryPolicy(new ExponentialBackoffRetry(100, 5, 1000));
        if (auth != null) {
            b.authorization("digest", auth.authBytes()).aclProvider(auth.aclProvider());
        }
        CuratorFramework c = b.build();
        c.getConnectionStateListenable().addListener((client, state) -> {
            if (state == ConnectionState.SUSPENDED) {
                LOG.warn("ZooKeeper connection suspended (no answer for 2/3 of the session timeout); the session "
                        + "lives on for up to {} ms while the client reconnects", sessionMillis);
            } else if (state == ConnectionState.RECONNECTED) {
                LOG.info("ZooKeeper connection restored, same session");
            }
        });
        c.start();
        boolean up;
        try {
            up = c.blockUntilConnected((int) waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            up = false;
        }
        if (!up) {
            c.close();
            throw new IllegalStateException("cannot reach ZooKeeper at " + connectString + " within " + waitMillis
                    + " ms");
        }
        int granted = negotiated(c);
        if (granted > 0 && granted < sessionMillis) {
            LOG.warn("ZooKeeper at {} granted a session of {} ms, not the {} ms asked (raise its maxSessionTimeout)",
                    connectString, granted, sessionMillis);
        }
        return c;
    }

    /** The session timeout the server granted, ms, or 0 if not connected. */
    public static int negotiated(CuratorFramework c) {
        try {
            return c.getZookeeperClient().getZooKeeper().getSessionTimeout();
        } catch (Exception e) {
            return 0;
        }
    }
}
