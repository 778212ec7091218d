package org.tebaldi.server.process;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.service.TimestampService;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.net.ClusterSecret;
import org.tebaldi.server.net.NettyOptions;
import org.tebaldi.server.net.NettyTransport;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.tc.TransactionCoordinator;
import org.tebaldi.server.zk.ClusterStore;
import org.tebaldi.server.zk.Election;
import org.tebaldi.server.zk.EmbeddedZooKeeper;
import org.tebaldi.server.zk.Membership;
import org.tebaldi.server.zk.Versioned;
import org.tebaldi.server.zk.ZkConnection;
import org.tebaldi.server.zk.ZkPaths;

/**
 * One node of a real cluster (docs/architecture.md, "Runtime"; {@code tebaldi node}): connects to ZooKeeper (or starts an
 * embedded one), reads the cluster manifest and the tree, builds the database through the {@link WorkloadResolver},
 * starts an {@link EmbeddedRuntime} on the one event-loop thread of its {@link NettyTransport} (received messages
 * are handled, and replies written, without a thread hand-off), whose directory is ZooKeeper membership, wins
 * the leader election first for singleton roles, spawns the node's actor inside a {@link ControlShell}, registers
 * in membership and watches the tree. ZooKeeper events reach actors only through their mailboxes
 * ({@code runtime.inject}): membership departures become {@link NodeDown} messages. The process stops when the
 * runner asks, when its ZooKeeper session is lost (the cluster has declared it dead), or — with
 * {@code exitOnStdinEof} — when its parent closes standard input.
 */
public final class NodeHost implements HostServices, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeHost.class);
    private static final long CONFIG_WAIT_MILLIS = 60_000;

    private final NodeOptions opts;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private EmbeddedZooKeeper embeddedZk;
    private CuratorFramework zk;
    private ClusterStore store;
    private Membership membership;
    private Election election;
    private EmbeddedRuntime runtime;
    private NettyTransport transport;
    private NodeId id;
    private volatile int treeVersion = -1;
    private boolean allServices;
    private volatile String stopReason;
    private volatile boolean sessionLost;
    private org.tebaldi.server.zk.ZkLease lease;
    private DataServer dataServer;

    /**
     * The data server whose replica this data server opens, or -1 for its own store
     * ({@link org.tebaldi.server.zk.Failovers#replicaToOpen}: {@code --promote-from}, or this partition's failover
     * decision in ZooKeeper in this cluster incarnation).
     *
     * @throws IllegalStateException if {@code --promote-from} names another replica than the recorded decision
     */
    private int promotedFrom(ClusterConfig cfg, ZkPaths paths, int configVersion) {
        if (!cfg.replication().enabled() || !cfg.durability().enabled()) {
            return opts.promoteFrom(); // PromotedReplica.store refuses it with one message
        }
        int from = new org.tebaldi.server.zk.Failovers(zk, paths, configVersion).replicaToOpen(opts.index(),
                opts.promoteFrom());
        if (from >= 0 && opts.promoteFrom() < 0) {
            LOG.info("ds{}: the failover decision in ZooKeeper promotes ds{}'s replica: opening it instead of this "
                    + "server's own store", opts.index(), from);
        }
        return from;
    }

    private NodeHost(NodeOptions opts) {
        this.opts = opts;
    }

    /**
     * Starts the node and returns once it is registered (a standby service returns once it leads).
     *
     * @throws IllegalStateException with one clear message if ZooKeeper, the manifest, the tree or the port fail
     * @throws IllegalArgumentException if the index does not exist in the manifest
     */
    public static NodeHost start(NodeOptions opts, WorkloadResolver resolver) throws InterruptedException {
        NodeHost h = new NodeHost(opts);
        try {
            h.boot(resolver);
            return h;
        } catch (RuntimeException | InterruptedException e) {
            h.close();
            throw e;
        }
    }

    private void boot(WorkloadResolver resolver) throws InterruptedException {
        String connect = opts.zk();
        if (connect == null) {
            embeddedZk = EmbeddedZooKeeper.start();
            connect = embeddedZk.connectString();
            LOG.info("embedded ZooKeeper at {} (pass --zk {} to the other nodes)", connect, connect);
        }
        ZkPaths paths = new ZkPaths(opts.cluster());
        ClusterCredentials creds = opts.credentials() == null ? null
                : ClusterCredentials.open(opts.credentials(), paths);
        zk = ZkConnection.open(connect, opts.sessionMillis(), 15_000, creds == null ? null : creds.zkAuth());
        // SUSPENDED (no answer for 2/3 of the session timeout: this JVM or the server paused, the CPU is
        // saturated) is not death: the session and this node's membership live on while the client reconnects.
        // Only LOST — the session expired — means the cluster has declared this node dead.
        zk.getConnectionStateListenable().addListener((c, state) -> {
            if (state == ConnectionState.LOST) {
                sessionLost = true;
                requestShutdown("ZooKeeper session lost: the cluster has declared this node dead");
            }
        });
        store = new ClusterStore(zk, paths);
        Versioned<org.tebaldi.server.zk.ClusterManifest> manifest = store.awaitConfig(CONFIG_WAIT_MILLIS);
        Versioned<String> tree = store.awaitTree(CONFIG_WAIT_MILLIS);
        var m = manifest.value();
        WorkloadResolver.Resolved db = resolver.resolve(m.workload(), m.dataServers());
        CcTree cc = TreeLoader.parse(tree.value(), "ZooKeeper " + paths.tree(), TreeContext.of(db.database()));
        ClusterConfig cfg = new ClusterConfig(db.database(), cc, m.coordinators(), m.dataServers(),
                db.partitioner(), m.recordHistory()).withProfiling(m.profileFlushMicros())
                .withOpBatching(m.opBatching())
                .withDurability(m.durability()).withCommit(m.commitProtocol(), m.commitEpochMicros())
                .withReplication(m.replication());
        allServices = m.allServices();
        checkIndex(m.coordinators(), m.dataServers());
        id = new NodeId(opts.role(), opts.singleton() ? 0 : opts.index());
        String name = opts.singleton() ? opts.role().cli() + "-" + opts.index() : id.toString();
        org.tebaldi.server.net.NodeTls tls = m.tls() ? ClusterCredentials.nodeTls(creds, opts.cluster(), id) : null;
        membership = new Membership(zk, paths);
        io.netty.channel.EventLoopGroup loop = NettyTransport.singleLoop(name);
        runtime = new EmbeddedRuntime(loop.next(), rt -> {
            transport = new NettyTransport(rt, rt::hosts, rt.stats(), CodecRegistry.classPath(),
                    new CodecContext(db.database().catalog()), membership,
                    NettyOptions.defaults().withSecret(ClusterSecret.parse(m.secret())).withTls(tls), name, loop);
            return transport;
        });
        runtime.alignClock(m.clockOriginMicros());
        InetSocketAddress bound = transport.bind(opts.bindHost(), opts.port());
        if (opts.singleton()) {
            election = new Election(zk, paths, opts.role().cli(), name);
            if (!election.leads()) {
                LOG.info("{}: standing by for the {} role (another process leads)", name, opts.role().cli());
            }
            while (!election.awaitLeadership(1000)) {
                if (stopReason != null) {
                    throw new IllegalStateException(stopReason);
                }
            }
        }
        Actor node;
        if (opts.role() == Role.DS) {
            if (opts.fencing() && cfg.replication().enabled()) {
                lease = new org.tebaldi.server.zk.ZkLease(zk);
                cfg.withLease(lease);
                LOG.info("{}: fenced by a {} ms lease on its ZooKeeper session", id, lease.lengthMillis());
            }
            NodeId self = id;
            java.util.concurrent.Executor toSelf =
                    task -> runtime.inject(self, new org.tebaldi.server.durability.LogStore.Callback(task));
            int from = promotedFrom(cfg, paths, manifest.version());
            DataServer ds = new DataServer(opts.index(), cfg, 1 << 16, toSelf,
                    from >= 0 ? PromotedReplica.store(cfg, opts.index(), from) : null);
            if (from >= 0) {
                LOG.info("{}: promoted: recovering from the replica kept by ds{}", id, from);
            }
            node = ds;
            dataServer = ds;
            if (ds.restarted()) {
                LOG.info("{}: restarting from its store in {}", id, cfg.durability().dirOf(opts.index()));
            }
        } else {
            node = node(cfg, m.replyTimeoutMillis());
        }
        runtime.spawn(id, new ControlShell(node, this));
        membership.onDown(n -> runtime.inject(id, Membership.left(n)));
        if (node instanceof org.tebaldi.server.epoch.EpochService) {
            for (int i = 0; i < cfg.coordinators(); i++) {
                if (membership.isDown(NodeId.tc(i))) { // left before this term: not a member of its epochs
                    runtime.inject(id, Membership.left(NodeId.tc(i)));
                }
            }
        }
        store.watchTree(v -> {
            if (v.version() != treeVersion) {
                treeVersion = v.version();
                LOG.info("{}: tree version {} in ZooKeeper:\n{}", id, v.version(), v.value().strip());
            }
        });
        registerWhenFree(new InetSocketAddress(opts.advertiseHost(), bound.getPort()));
        LOG.info("{} up at {}:{} (cluster {}, config version {}, tree version {}, ZooKeeper session {} ms{}){}", id,
                opts.advertiseHost(), bound.getPort(), opts.cluster(), manifest.version(), tree.version(),
                ZkConnection.negotiated(zk), tls == null ? "" : ", mutual TLS",
                node == null ? "; hosts nothing yet beyond membership" : "");
        if (opts.exitOnStdinEof()) {
            watchStdin();
        }
    }

    /**
     * Registers in membership; a node restarted right after it died waits (up to 60 s) for its previous
     * incarnation's session to end, so the rest of the cluster has seen it leave first.
     */
    private void registerWhenFree(InetSocketAddress address) throws InterruptedException {
        long end = System.nanoTime() + 60_000_000_000L;
        while (true) {
            try {
                membership.register(id, address);
                return;
            } catch (IllegalStateException e) {
                if (!e.getMessage().contains("already registered") || System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private void checkIndex(int tcs, int dss) {
        if (opts.role() == Role.TC && (opts.index() < 0 || opts.index() >= tcs)) {
            throw new IllegalArgumentException("--id " + opts.index() + " is not a coordinator of this cluster "
                    + "(it has " + tcs + ": ids 0.." + (tcs - 1) + ")");
        }
        if (opts.role() == Role.DS && (opts.index() < 0 || opts.index() >= dss)) {
            throw new IllegalArgumentException("--id " + opts.index() + " is not a data server of this cluster "
                    + "(it has " + dss + ": ids 0.." + (dss - 1) + ")");
        }
    }

    private Actor node(ClusterConfig cfg, long replyTimeoutMillis) {
        switch (opts.role()) {
            case TC: {
                TransactionCoordinator tc = new TransactionCoordinator(opts.index(), cfg);
                tc.setReplyTimeout(replyTimeoutMillis * 1000);
                return tc;
            }
            case TS:
            case BATCH:
            case EPOCH: {
                Map<Role, Supplier<Actor>> services = allServices ? Cluster.allServices(cfg) : Cluster.services(cfg);
                Supplier<Actor> f = services.get(opts.role());
                if (f == null) {
                    LOG.info("no mechanism of the tree uses the {} service", opts.role().cli());
                    return null;
                }
                Actor a = f.get();
                if (a instanceof TimestampService ts) {
                    long epoch = election.nextEpoch();
                    ts.startTerm(epoch);
                    LOG.info("timestamp service term {}: timestamps start above {}", epoch, epoch << 40);
                } else if (a instanceof org.tebaldi.core.service.ElectedService e) {
                    long epoch = election.nextEpoch();
                    e.startTerm(epoch);
                    if (a instanceof org.tebaldi.server.epoch.EpochService es) {
                        NodeId self = id;
                        es.useDecisionLog(new org.tebaldi.server.zk.ZkDecisionLog(zk, new ZkPaths(opts.cluster()),
                                m -> runtime.inject(self, m)));
                    }
                    LOG.info("{} service term {}", opts.role().cli(), epoch);
                }
                return a;
            }
            default:
                return null; // monitor, configurator: hosted by the runner (tebaldi tune / profiler.enabled)
        }
    }

    private void watchStdin() {
        Thread t = new Thread(() -> {
            InputStream in = System.in;
            byte[] buf = new byte[256];
            try {
                while (in.read(buf) >= 0) {
                    // the parent never writes; keep reading until it goes away
                }
            } catch (IOException ignored) {
                // treated as EOF
            }
            requestShutdown("standard input closed: the parent process is gone");
        }, "tebaldi-stdin-watch");
        t.setDaemon(true);
        t.start();
    }

    /** This node's address. */
    public NodeId id() {
        return id;
    }

    /** The transport (for counters). */
    public NettyTransport transport() {
        return transport;
    }

    @Override
    public EmbeddedRuntime runtime() {
        return runtime;
    }

    @Override
    public long dropped() {
        return transport == null ? 0 : transport.transportStats().dropped();
    }

    @Override
    public int treeVersion() {
        return treeVersion;
    }

    @Override
    public void requestShutdown(String why) {
        if (stopReason == null) {
            stopReason = why;
            LOG.info("{}: stopping: {}", id, why);
        }
        stopped.countDown();
    }

    /**
     * Blocks until the process should stop, then stops it.
     *
     * @return the exit code: 0 when asked to stop, 1 when the ZooKeeper session was lost
     */
    public int awaitStop() throws InterruptedException {
        stopped.await();
        close();
        return sessionLost ? 1 : 0;
    }

    /** Why the node stopped or is stopping, or null. */
    public String stopReason() {
        return stopReason;
    }

    /** Leaves membership (closing the session), stops the runtime and an embedded ZooKeeper. Idempotent. */
    @Override
    public synchronized void close() {
        stopped.countDown();
        if (election != null) {
            election.close();
        }
        if (store != null) {
            store.close();
        }
        if (membership != null) {
            membership.close();
        }
        if (lease != null) {
            lease.close();
        }
        if (zk != null) {
            zk.close();
            zk = null;
        }
        if (runtime != null) {
            runtime.close();
            runtime = null;
        }
        if (dataServer != null) {
            dataServer.closeLog();
            dataServer = null;
        }
        if (embeddedZk != null) {
            embeddedZk.close();
            embeddedZk = null;
        }
    }
}
