package org.tebaldi.server.zk;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.net.Directory;

/**
 * Cluster membership and service discovery through ZooKeeper (docs/architecture.md, "Failures"): each live node has an ephemeral
 * znode {@code members/<node>} holding {@code host:port}; a {@link CuratorCache} keeps every process's view, which
 * serves as the Netty transport's {@link Directory}. A node whose znode disappears (its session ended: it died, or
 * stopped; or it was {@link #evict evicted}) is reported to {@link #onDown} listeners once. Listeners run on Curator's event thread and must only
 * hand the event on (e.g. {@code runtime.inject}).
 */
public final class Membership implements Directory, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Membership.class);

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final ConcurrentHashMap<NodeId, InetSocketAddress> live = new ConcurrentHashMap<>();
    private final Set<NodeId> down = ConcurrentHashMap.newKeySet();
    private final List<Consumer<NodeId>> changes = new CopyOnWriteArrayList<>();
    private final List<Consumer<NodeId>> downs = new CopyOnWriteArrayList<>();
    private final CuratorCache cache;

    /**
     * Starts watching the members of {@code paths.cluster()}; returns once the current members are known.
     *
     * @throws IllegalStateException if ZooKeeper does not answer within 30 s
     */
    public Membership(CuratorFramework zk, ZkPaths paths) {
        this.zk = zk;
        this.paths = paths;
        try {
            zk.createContainers(paths.members());
        } catch (Exception e) {
            throw new IllegalStateException("cannot create " + paths.members() + " in ZooKeeper: " + e, e);
        }
        cache = CuratorCache.build(zk, paths.members());
        CountDownLatch ready = new CountDownLatch(1);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((old, now) -> update(now))
                .forDeletes(this::removed)
                .forInitialized(ready::countDown)
                .build());
        cache.start();
        try {
            if (!ready.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("ZooKeeper did not list " + paths.members() + " within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the members", e);
        }
    }

    private NodeId nodeOf(ChildData d) {
        String path = d.getPath();
        if (path.equals(paths.members())) {
            return null;
        }
        try {
            return NodeNames.parse(path.substring(path.lastIndexOf('/') + 1));
        } catch (IllegalArgumentException e) {
            LOG.warn("ignoring member znode {}: {}", path, e.getMessage());
            return null;
        }
    }

    private void update(ChildData d) {
        NodeId n = nodeOf(d);
        if (n == null) {
            return;
        }
        String hp = new String(d.getData(), StandardCharsets.UTF_8);
        int colon = hp.lastIndexOf(':');
        if (colon < 0) {
            LOG.warn("member {} has no host:port ('{}')", n, hp);
            return;
        }
        InetSocketAddress a = InetSocketAddress.createUnresolved(hp.substring(0, colon),
                Integer.parseInt(hp.substring(colon + 1)));
        a = new InetSocketAddress(a.getHostString(), a.getPort());
        down.remove(n);
        InetSocketAddress old = live.put(n, a);
        if (!a.equals(old)) {
            LOG.info("member {} at {}", n, hp);
            changes.forEach(l -> l.accept(n));
        }
    }

    private void removed(ChildData d) {
        NodeId n = nodeOf(d);
        if (n == null) {
            return;
        }
        live.remove(n);
        if (down.add(n)) {
            LOG.info("member {} left (its ZooKeeper session ended, or it was evicted)", n);
            changes.forEach(l -> l.accept(n));
            downs.forEach(l -> l.accept(n));
        }
    }

    /**
     * Registers a node of this process (ephemeral: it disappears with this process's session).
     *
     * @throws IllegalStateException if the name is taken by another live session, or ZooKeeper fails
     */
    public void register(NodeId node, InetSocketAddress address) {
        String path = paths.member(node.toString());
        byte[] data = (address.getHostString() + ":" + address.getPort()).getBytes(StandardCharsets.UTF_8);
        try {
            zk.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
        } catch (KeeperException.NodeExistsException e) {
            throw new IllegalStateException(node + " is already registered in cluster " + paths.cluster()
                    + " (another process runs it)");
        } catch (Exception e) {
            throw new IllegalStateException("cannot register " + node + " in ZooKeeper: " + e, e);
        }
    }

    /**
     * Removes the member znode of a node known to be dead (e.g. the runner saw the process it launched exit), so
     * every process sees it leave now instead of when its ZooKeeper session times out. Does nothing if the node
     * is not registered.
     *
     * @throws IllegalStateException if ZooKeeper fails
     */
    public void evict(NodeId node) {
        String path = paths.member(node.toString());
        try {
            zk.delete().forPath(path);
            LOG.info("evicted {}: its process exited", node);
        } catch (KeeperException.NoNodeException gone) {
            // its session ended first
        } catch (Exception e) {
            throw new IllegalStateException("cannot evict " + node + " from ZooKeeper: " + e, e);
        }
    }

    /** The {@link org.tebaldi.core.runtime.NodeDown} that tells an actor {@code node} left the membership. */
    public static org.tebaldi.core.runtime.NodeDown left(NodeId node) {
        return new org.tebaldi.core.runtime.NodeDown(node, node + " left the cluster (its process exited or its "
                + "ZooKeeper session ended)");
    }

    /** Calls {@code listener} (on Curator's thread) once for each node that leaves. */
    public void onDown(Consumer<NodeId> listener) {
        downs.add(listener);
    }

    @Override
    public void onChange(Consumer<NodeId> listener) {
        changes.add(listener);
    }

    @Override
    public InetSocketAddress addressOf(NodeId node) {
        return live.get(node);
    }

    @Override
    public boolean isDown(NodeId node) {
        return down.contains(node);
    }

    /** Live members and their addresses, sorted. */
    public Map<NodeId, InetSocketAddress> members() {
        return new TreeMap<>(live);
    }

    /**
     * Waits until every node of {@code nodes} is a member.
     *
     * @return the nodes still missing when {@code timeoutMillis} ran out (empty on success)
     */
    public Set<NodeId> await(Collection<NodeId> nodes, long timeoutMillis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            Set<NodeId> missing = new java.util.TreeSet<>(nodes);
            missing.removeAll(live.keySet());
            if (missing.isEmpty() || System.nanoTime() > end) {
                return missing;
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        cache.close();
    }
}
