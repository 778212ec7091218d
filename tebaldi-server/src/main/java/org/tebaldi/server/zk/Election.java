package org.tebaldi.server.zk;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Leader election for a singleton service (timestamp service, batch manager, monitor, configurator; docs/architecture.md, "Failures")
 * with a Curator {@link LeaderLatch}: every process started for the role joins, one leads and hosts the service,
 * the others wait as standbys and take over when the leader's session ends. Each leadership term gets an epoch
 * number from ZooKeeper, strictly larger than every earlier term's.
 */
public final class Election implements AutoCloseable {
    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final String role;
    private final LeaderLatch latch;

    /** Joins the election of {@code role}; {@code participant} names this process in the latch. */
    public Election(CuratorFramework zk, ZkPaths paths, String role, String participant) {
        this.zk = zk;
        this.paths = paths;
        this.role = role;
        this.latch = new LeaderLatch(zk, paths.leader(role), participant);
        try {
            latch.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot join the " + role + " election: " + e, e);
        }
    }

    /**
     * Blocks until this process leads (the calling thread is a startup thread, not an actor).
     *
     * @return false if {@code timeoutMillis} passed first
     */
    public boolean awaitLeadership(long timeoutMillis) throws InterruptedException {
        return latch.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Whether this process leads now. */
    public boolean leads() {
        return latch.hasLeadership();
    }

    /**
     * Starts a new leadership term: increments the role's epoch counter in ZooKeeper (optimistically, by
     * version) and returns the new epoch (1 for the first term).
     */
    public long nextEpoch() {
        String path = paths.epoch(role);
        try {
            while (true) {
                try {
                    Stat st = new Stat();
                    byte[] d = zk.getData().storingStatIn(st).forPath(path);
                    long next = Long.parseLong(new String(d, java.nio.charset.StandardCharsets.US_ASCII)) + 1;
                    zk.setData().withVersion(st.getVersion()).forPath(path, Long.toString(next).getBytes(
                            java.nio.charset.StandardCharsets.US_ASCII));
                    return next;
                } catch (KeeperException.NoNodeException e) {
                    try {
                        zk.create().creatingParentContainersIfNeeded().forPath(path, "1".getBytes(
                                java.nio.charset.StandardCharsets.US_ASCII));
                        return 1;
                    } catch (KeeperException.NodeExistsException raced) {
                        // someone created it first: read again
                    }
                } catch (KeeperException.BadVersionException raced) {
                    // updated concurrently: read again
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot advance the " + role + " epoch: " + e, e);
        }
    }

    @Override
    public void close() {
        try {
            latch.close();
        } catch (IOException | IllegalStateException ignored) {
            // already closed
        }
    }
}
