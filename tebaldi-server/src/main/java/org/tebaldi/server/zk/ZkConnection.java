package org.tebaldi.server.zk;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** Opens Curator clients with the session and connection timeouts Tebaldi uses. */
public final class ZkConnection {
    /** Default session timeout, ms: a killed node is declared dead about this long after it died. */
    public static final int DEFAULT_SESSION_MILLIS = 3000;

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
