package org.tebaldi.server.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.net.ClusterSecret;

/**
 * ZooKeeper digest ACLs on a cluster's znodes (docs/cluster.md, "Security"), on an embedded ZooKeeper on loopback:
 * everything the runner and the nodes create under {@code /tebaldi/<cluster>} — the manifest holding the cluster
 * secret, the tree, membership, a leader latch, a term counter, a failover decision, the epoch commit records —
 * carries only the cluster's digest ACL; a client without the credentials, or with another cluster's, gets
 * {@code NoAuth} reading or listing each of them (and a node without them a message naming {@code --credentials}),
 * while the cluster's own client reads them. A runner that creates a cluster puts the ACL on open znodes an earlier
 * run of the same name left, and refuses a root another cluster's credentials protect.
 */
class ZkAclTest {
    private static final String TREE = "root: {cc: 2pl, txns: [t]}\n";
    private final List<CuratorFramework> clients = new ArrayList<>();
    private EmbeddedZooKeeper server;

    @BeforeEach
    void start() {
        server = EmbeddedZooKeeper.start();
    }

    @AfterEach
    void stop() {
        clients.forEach(CuratorFramework::close);
        server.close();
    }

    private CuratorFramework client(ZkAuth auth) {
        CuratorFramework c = ZkConnection.open(server.connectString(), 10_000, 15_000, auth);
        clients.add(c);
        return c;
    }

    private static ClusterManifest manifest(String secret) {
        return new ClusterManifest(Map.of("name", "bank"), 1, 2, false, 1, 1000).withSecret(secret);
    }

    private static List<String> znodes(CuratorFramework zk, String path) throws Exception {
        List<String> all = new ArrayList<>(List.of(path));
        for (String c : zk.getChildren().forPath(path)) {
            all.addAll(znodes(zk, path + "/" + c));
        }
        return all;
    }

    @Test
    void onlyTheClustersCredentialsReadItsZnodes() throws Exception {
        ZkPaths paths = new ZkPaths("acl");
        ZkAuth auth = ZkAuth.generate(paths);
        CuratorFramework cluster = client(auth);
        String secret = ClusterSecret.generate().encoded();
        int config;
        try (ClusterStore store = new ClusterStore(cluster, paths)) {
            config = store.publishNew(manifest(secret), TREE, auth);
        }
        try (Membership members = new Membership(cluster, paths);
             Election ts = new Election(cluster, paths, "ts", "ts-0")) {
            members.register(NodeId.ds(0), new InetSocketAddress("127.0.0.1", 4000));
            assertTrue(ts.awaitLeadership(10_000));
            ts.nextEpoch();
            new Failovers(cluster, paths, config).decide(1, 0, "test");
            new ZkDecisionLog(cluster, paths, m -> { });

            List<String> all = znodes(cluster, paths.root());
            for (String p : List.of(paths.config(), paths.tree(), paths.member("ds0"), paths.leader("ts"),
                    paths.epoch("ts"), paths.epoch("decisions"), paths.failover(config, 1))) {
                assertTrue(all.contains(p), p + " among " + all);
            }
            CuratorFramework stranger = client(null);
            CuratorFramework otherCluster = client(ZkAuth.generate(paths));
            for (String p : all) {
                assertEquals(auth.acl(), cluster.getACL().forPath(p), "the ACL of " + p);
                for (CuratorFramework outsider : List.of(stranger, otherCluster)) {
                    assertThrows(KeeperException.NoAuthException.class, () -> outsider.getData().forPath(p), p);
                    assertThrows(KeeperException.NoAuthException.class, () -> outsider.getChildren().forPath(p), p);
                    assertThrows(KeeperException.NoAuthException.class,
                            () -> outsider.setData().forPath(p, new byte[1]), p);
                }
            }
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> new ClusterStore(stranger, paths).awaitConfig(1_000));
            assertTrue(e.getMessage().contains("NoAuth") && e.getMessage().contains("--credentials"), e.getMessage());
            // the cluster's own clients read everything; /tebaldi, shared by the clusters of an ensemble, stays open
            CuratorFramework node = client(ZkAuth.parse(paths, auth.line()));
            assertEquals(secret, new ClusterStore(node, paths).awaitConfig(1_000).value().secret());
            assertEquals(TREE, new ClusterStore(node, paths).awaitTree(1_000).value());
            assertEquals(List.of("acl"), stranger.getChildren().forPath("/tebaldi"));
            assertEquals(ZooDefs.Ids.OPEN_ACL_UNSAFE, cluster.getACL().forPath("/tebaldi"));
        }
    }

    @Test
    void aNewClusterClaimsAnEarlierRunsOpenZnodesAndRefusesAnotherClustersRoot() throws Exception {
        ZkPaths paths = new ZkPaths("reused");
        CuratorFramework old = client(null); // a runner from before ACLs left open znodes of this name
        old.create().creatingParentContainersIfNeeded().forPath(paths.config(), manifest("b2xk").toJson());
        old.create().creatingParentContainersIfNeeded().forPath(paths.member("tc0"), "h:1".getBytes());
        ZkAuth auth = ZkAuth.generate(paths);
        CuratorFramework cluster = client(auth);
        try (ClusterStore store = new ClusterStore(cluster, paths)) {
            store.publishNew(manifest(ClusterSecret.generate().encoded()), TREE, auth);
        }
        for (String p : znodes(cluster, paths.root())) {
            assertEquals(auth.acl(), cluster.getACL().forPath(p), "the ACL of " + p);
            assertThrows(KeeperException.NoAuthException.class, () -> old.getData().forPath(p), p);
        }
        ZkAuth other = ZkAuth.generate(paths);
        CuratorFramework next = client(other);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new ClusterStore(next, paths).publishNew(manifest("bmV3"), TREE, other));
        assertTrue(e.getMessage().contains("another digest ACL") && e.getMessage().contains("another name"),
                e.getMessage());
    }
}
