package org.tebaldi.server.zk;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The versioned cluster configuration in ZooKeeper (docs/architecture.md, "Failures"): the {@link ClusterManifest} and the active CC
 * tree (YAML, {@code TreeLoader.toYaml}/{@code readString}), each with its znode version; a watch that reports
 * every new tree version (live reconfiguration acts on it in a later issue; for now nodes log and expose it).
 * Methods block the calling thread (startup and runner threads, never actors); watch callbacks run on Curator's
 * thread.
 */
public final class ClusterStore implements AutoCloseable {
    private final CuratorFramework zk;
    private final ZkPaths paths;
    private CuratorCache treeWatch;

    public ClusterStore(CuratorFramework zk, ZkPaths paths) {
        this.zk = zk;
        this.paths = paths;
    }

    /**
     * Writes (creates or replaces) the manifest.
     *
     * @return its new version
     */
    public int publishConfig(ClusterManifest m) {
        return put(paths.config(), m.toJson());
    }

    /**
     * Publishes a new cluster (the runner that creates it): puts {@code auth}'s ACL on whatever an earlier cluster of
     * this name left under the root ({@link ZkAuth#claim}), removes its failover decisions (none applies to a new
     * cluster), then writes the manifest and the tree.
     *
     * @return the manifest's version (this cluster incarnation's config version)
     * @throws IllegalStateException if the root belongs to other credentials, or ZooKeeper fails
     */
    public int publishNew(ClusterManifest m, String treeYaml, ZkAuth auth) {
        auth.claim(zk);
        Failovers.clear(zk, paths);
        int version = publishConfig(m);
        publishTree(treeYaml);
        return version;
    }

    /**
     * Writes (creates or replaces) the tree.
     *
     * @return its new version
     */
    public int publishTree(String yaml) {
        return put(paths.tree(), yaml.getBytes(StandardCharsets.UTF_8));
    }

    private int put(String path, byte[] data) {
        try {
            try {
                zk.create().creatingParentContainersIfNeeded().forPath(path, data);
                return 0;
            } catch (KeeperException.NodeExistsException e) {
                return zk.setData().forPath(path, data).getVersion();
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot write " + path + " in ZooKeeper: " + e, e);
        }
    }

    /**
     * Reads the manifest, waiting for it to be published.
     *
     * @throws IllegalStateException if none appears within {@code timeoutMillis}, or it is malformed
     */
    public Versioned<ClusterManifest> awaitConfig(long timeoutMillis) throws InterruptedException {
        Versioned<byte[]> v = await(paths.config(), timeoutMillis);
        return new Versioned<>(v.version(), ClusterManifest.fromJson(v.value()));
    }

    /**
     * Reads the tree YAML, waiting for it to be published.
     *
     * @throws IllegalStateException if none appears within {@code timeoutMillis}
     */
    public Versioned<String> awaitTree(long timeoutMillis) throws InterruptedException {
        Versioned<byte[]> v = await(paths.tree(), timeoutMillis);
        return new Versioned<>(v.version(), new String(v.value(), StandardCharsets.UTF_8));
    }

    private Versioned<byte[]> await(String path, long timeoutMillis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            try {
                Stat st = new Stat();
                byte[] data = zk.getData().storingStatIn(st).forPath(path);
                return new Versioned<>(st.getVersion(), data);
            } catch (KeeperException.NoNodeException e) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException("nothing was published at " + path + " within " + timeoutMillis
                            + " ms (start the experiment runner, or publish the cluster's configuration first)");
                }
                Thread.sleep(100);
            } catch (InterruptedException e) {
                throw e;
            } catch (KeeperException.NoAuthException e) {
                throw new IllegalStateException("ZooKeeper refused to read " + path + " (NoAuth): the cluster's "
                        + "znodes carry a digest ACL (docs/cluster.md, \"Security\"); start the node with "
                        + "--credentials DIR, the credentials directory its runner wrote (<run dir>/cluster, holding "
                        + "zk-digest)", e);
            } catch (Exception e) {
                throw new IllegalStateException("cannot read " + path + " from ZooKeeper: " + e, e);
            }
        }
    }

    /** Calls {@code listener} with every tree version written from now on (and the current one). */
    public synchronized void watchTree(Consumer<Versioned<String>> listener) {
        if (treeWatch != null) {
            throw new IllegalStateException("already watching the tree");
        }
        treeWatch = CuratorCache.build(zk, paths.tree(), CuratorCache.Options.SINGLE_NODE_CACHE);
        treeWatch.listenable().addListener(CuratorCacheListener.builder().forCreatesAndChanges((old, now) ->
                listener.accept(new Versioned<>(now.getStat().getVersion(),
                        new String(now.getData(), StandardCharsets.UTF_8)))).build());
        treeWatch.start();
    }

    @Override
    public synchronized void close() {
        if (treeWatch != null) {
            treeWatch.close();
        }
    }
}
