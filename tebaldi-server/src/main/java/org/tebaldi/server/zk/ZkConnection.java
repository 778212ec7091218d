package org.tebaldi.server.zk;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** Opens Curator clients with the session and connection timeouts Tebaldi uses. */
public final class ZkConnection {
    /**
     * Default session timeout of a node, ms: a node that cannot reach ZooKeeper (or that ZooKeeper does not hear)
     * for this long is declared dead. 10 s rides out GC pauses and CPU starvation on a busy machine (3 s did not:
     * a data server of a 10-warehouse, 200-client TPC-C run on 2 cores lost its session); a node process that the
     * runner launched and that exits is declared dead at once ({@link Membership#evict}), whatever the timeout.
     */
    public static final int DEFAULT_SESSION_MILLIS = 10_000;
    /**
     * Session timeout of the runner (client endpoints, control node), ms: nothing waits for the runner's death
     * (its nodes exit when their standard input closes), so it is long enough for the runner's own GC pauses.
     */
    public static final int RUNNER_SESSION_MILLIS = 30_000;

    private ZkConnection() {
    }

    /**
     * Connects and waits for the connection.
     *
     * @param connectString {@code host:port[,host:port...]}
     * @param sessionMillis session timeout, ms (the server clamps it to its min/max)
     * @param waitMillis    how long to wait for the first connection, ms
     * @throws IllegalStateException naming the ensemble if no connection came up in time
     */
    public static CuratorFramework open(String connectString, int sessionMillis, long waitMillis) {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(sessionMillis).connectionTimeoutMs((int) Math.min(waitMillis, sessionMillis))
                .retryPolicy(new ExponentialBackoffRetry(100, 5, 1000)).build();
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
        return c;
    }
}
