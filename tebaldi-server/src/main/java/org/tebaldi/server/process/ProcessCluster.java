package org.tebaldi.server.process;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.server.client.ClientNode;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.net.ClusterSecret;
import org.tebaldi.server.net.NettyOptions;
import org.tebaldi.server.net.NettyTransport;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.zk.ClusterManifest;
import org.tebaldi.server.zk.ClusterStore;
import org.tebaldi.server.zk.EmbeddedZooKeeper;
import org.tebaldi.server.zk.Membership;
import org.tebaldi.server.zk.ZkConnection;
import org.tebaldi.server.zk.ZkPaths;

/**
 * A cluster of node processes driven from this JVM (process mode, docs/architecture.md, "Runtime"): starts an embedded ZooKeeper on
 * loopback (or uses {@code zk}), publishes the manifest and the tree, hosts the client endpoints (one per
 * coordinator, failing over to the next live coordinator) and the {@link ControlNode} on a Netty runtime of its
 * own, launches one JVM per node with {@code nodeCommand} (e.g. {@code java -jar tebaldi.jar node}; the processes
 * themselves: {@link NodeProcesses}, where each listens: {@link NodeNetwork}), and waits until every node
 * registered. {@link #close} stops them all — asked first, then {@code destroyForcibly} — and a
 * shutdown hook does the same if this JVM exits or is interrupted first; children also exit by themselves when
 * this process dies (their standard input closes, and their ZooKeeper session ends with the embedded server).
 */
public final class ProcessCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessCluster.class);

    /**
     * What to start.
     *
     * @param config      the cluster as the runner sees it (database, tree, counts, history recording)
     * @param manifest    what nodes read from ZooKeeper to build the same configuration
     * @param name        the cluster's name in ZooKeeper
     * @param zk          an external ensemble, or null for an embedded ZooKeeper
     * @param nodeCommand the command that starts one node, before its {@code --role ...} arguments; null or empty:
     *                    launch nothing and wait for nodes started by hand ({@code tebaldi node}). When its first
     *                    element is a {@code java} executable, each node's {@code -Xmx} from the {@link HeapPlan}
     *                    is inserted right after it; an {@code -Xmx} in the command fixes every node's heap
     *                    instead. Either way {@link #start} fails before starting anything if the nodes and the
     *                    runner do not fit the machine's memory
     * @param logDir      where each node's output goes ({@code <node>.log})
     * @param startMillis how long to wait for every node to register, ms
     * @param bindHost    the interface the runner and every launched node listen on ({@code cluster.bind}):
     *                    {@code 127.0.0.1} (loopback) by default, {@code 0.0.0.0} for all
     * @param sessionMillis ZooKeeper session timeout of every launched node, ms ({@code cluster.sessionTimeout},
     *                    passed as {@code --session-timeout}); the runner's own session is at least as long
     * @param autoFailover {@code cluster.replication.failover: auto} (default): with replication on, a data server
     *                    whose membership ends is replaced by its first live backup's replica without an operator
     *                    ({@link AutoFailover}); false ({@code manual}): only {@link #promote} does
     * @param fencing     {@code cluster.replication.fencing: lease} (default): replicated data servers are fenced by a
     *                    lease on their ZooKeeper session (docs/reliability.md "No split brain"); false: {@code off}
     * @param network     where each process listens and how its command is wrapped ({@link NodeNetwork#oneHost}
     *                    of {@code bindHost} by default; network namespaces for the nemesis)
     */
    public record Spec(ClusterConfig config, ClusterManifest manifest, String name, String zk, List<String> nodeCommand,
                       Path logDir, long startMillis, String bindHost, int sessionMillis, boolean autoFailover,
                       boolean fencing, NodeNetwork network) {
        /** Fenced by a lease, every process on {@code bindHost}. */
        public Spec(ClusterConfig config, ClusterManifest manifest, String name, String zk, List<String> nodeCommand,
                    Path logDir, long startMillis, String bindHost, int sessionMillis, boolean autoFailover) {
            this(config, manifest, name, zk, nodeCommand, logDir, startMillis, bindHost, sessionMillis, autoFailover,
                    true, NodeNetwork.oneHost(bindHost));
        }

        /** With automatic failover. */
        public Spec(ClusterConfig config, ClusterManifest manifest, String name, String zk, List<String> nodeCommand,
                    Path logDir, long startMillis, String bindHost, int sessionMillis) {
            this(config, manifest, name, zk, nodeCommand, logDir, startMillis, bindHost, sessionMillis, true);
        }

        /** A cluster listening on loopback only, with the default session timeout. */
        public Spec(ClusterConfig config, ClusterManifest manifest, String name, String zk, List<String> nodeCommand,
                    Path logDir, long startMillis) {
            this(config, manifest, name, zk, nodeCommand, logDir, startMillis, "127.0.0.1");
        }

        /** With the default session timeout ({@link ZkConnection#DEFAULT_SESSION_MILLIS}). */
        public Spec(ClusterConfig config, ClusterManifest manifest, String name, String zk, List<String> nodeCommand,
                    Path logDir, long startMillis, String bindHost) {
            this(config, manifest, name, zk, nodeCommand, logDir, startMillis, bindHost,
                    ZkConnection.DEFAULT_SESSION_MILLIS);
        }

        /** The same spec with fencing on or off ({@code replication.fencing}) and the processes on {@code net}. */
        public Spec with(boolean fence, NodeNetwork net) {
            return new Spec(config, manifest, name, zk, nodeCommand, logDir, startMillis, net.runnerHost(),
                    sessionMillis, autoFailover, fence, net);
        }
    }

    private final Spec spec;
    private NodeProcesses procs;
    private final Set<NodeId> failed = ConcurrentHashMap.newKeySet();
    private final List<ClientNode> clients = new ArrayList<>();
    private final Thread hook = new Thread(this::destroyAll, "tebaldi-children-cleanup");
    private EmbeddedZooKeeper embeddedZk;
    private CuratorFramework zk;
    private Membership membership;
    private EmbeddedRuntime runtime;
    private NettyTransport transport;
    private ControlNode control;
    private AutoFailover failover;
    private InetSocketAddress bound;
    private String connect;

    private ProcessCluster(Spec spec) {
        this.spec = spec;
    }

    /**
     * Starts everything and waits for the nodes.
     *
     * @throws IllegalStateException naming the node and its log if a node exits or does not register in time; or,
     *                               before anything started, naming the memory needed and the fix if the nodes
     *                               and the runner do not fit the machine ({@link HeapPlan})
     */
    public static ProcessCluster start(Spec spec) throws InterruptedException {
        ProcessCluster c = new ProcessCluster(spec);
        Runtime.getRuntime().addShutdownHook(c.hook);
        try {
            c.boot();
            return c;
        } catch (RuntimeException | InterruptedException e) {
            c.close();
            throw e;
        }
    }

    /** The nodes of the cluster: service nodes, data servers, coordinators. */
    public List<NodeId> nodes() {
        List<NodeId> n = new ArrayList<>();
        (spec.manifest().allServices() ? Cluster.allServices(spec.config()) : Cluster.services(spec.config()))
                .keySet().forEach(r -> n.add(new NodeId(r, 0)));
        for (int i = 0; i < spec.config().dataServers(); i++) {
            n.add(NodeId.ds(i));
        }
        for (int i = 0; i < spec.config().coordinators(); i++) {
            n.add(NodeId.tc(i));
        }
        return n;
    }

    private void boot() throws InterruptedException {
        boolean launching = spec.nodeCommand() != null && !spec.nodeCommand().isEmpty();
        Map<NodeId, Long> heapMb = Map.of();
        if (launching && NodeProcesses.isJava(spec.nodeCommand())) {
            heapMb = HeapPlan.forThisMachine(nodes(), spec.nodeCommand()); // before anything starts: fails if no fit
            LOG.info("node heaps (MiB): {}", heapMb.isEmpty() ? "as the node command's -Xmx" : heapMb);
        }
        if (spec.zk() == null) {
            embeddedZk = EmbeddedZooKeeper.start(spec.network().zkHost());
            connect = embeddedZk.connectString();
        } else {
            connect = spec.zk();
        }
        ZkPaths paths = new ZkPaths(spec.name());
        ClusterCredentials creds = ClusterCredentials.create(ClusterCredentials.beside(spec.logDir()), paths,
                spec.manifest().tls(), nodes());
        zk = ZkConnection.open(connect, Math.max(ZkConnection.RUNNER_SESSION_MILLIS, spec.sessionMillis()), 15_000,
                creds.zkAuth());
        ClusterSecret secret = ClusterSecret.generate();
        // every process's clock counts from this wall-clock instant (ClusterManifest#clockOriginMicros)
        java.time.Instant t0 = java.time.Instant.now();
        long clockOrigin = t0.getEpochSecond() * 1_000_000L + t0.getNano() / 1_000;
        int configVersion;
        try (ClusterStore store = new ClusterStore(zk, paths)) {
            configVersion = store.publishNew(spec.manifest().withSecret(secret.encoded()).withClockOrigin(clockOrigin),
                    TreeLoader.toYaml(spec.config().tree()), creds.zkAuth());
        }
        membership = new Membership(zk, paths);
        procs = new NodeProcesses(spec, heapMb, connect, membership, failed);
        failover = new AutoFailover(spec.config().replication(), spec.config().dataServers(), membership,
                new org.tebaldi.server.zk.Failovers(zk, paths, configVersion), spec.autoFailover(),
                launching ? (ds, host) -> procs.relaunch(ds, List.of("--promote-from", Integer.toString(host)))
                        : procs::awaitPromoted);
        io.netty.channel.EventLoopGroup loop = NettyTransport.singleLoop("runner");
        runtime = new EmbeddedRuntime(loop.next(), rt -> {
            transport = new NettyTransport(rt, rt::hosts, rt.stats(), CodecRegistry.classPath(),
                    new CodecContext(spec.config().db().catalog()), membership,
                    NettyOptions.defaults().withSecret(secret).withTls(spec.manifest().tls()
                            ? creds.tls(ClusterCredentials.RUNNER) : null), "runner", loop);
            return transport;
        });
        runtime.alignClock(clockOrigin);
        bound = NodeNetwork.advertised(transport.bind(spec.network().runnerHost(), 0));
        control = new ControlNode(runtime);
        runtime.spawn(ControlNode.ID, control);
        int tcs = spec.config().coordinators();
        for (int i = 0; i < tcs; i++) {
            ClientNode c = new ClientNode(NodeId.client(i), NodeId.tc(i), spec.config().db(), runtime);
            c.setFailover(this::liveCoordinatorAfter);
            clients.add(c);
            runtime.spawn(NodeId.client(i), c);
        }
        membership.onDown(n -> {
            failed.add(n);
            failover.down(n);
            runtime.inject(ControlNode.ID, Membership.left(n));
            for (int i = 0; i < tcs; i++) {
                runtime.inject(NodeId.client(i), Membership.left(n));
            }
        });
        membership.register(ControlNode.ID, bound);
        for (int i = 0; i < tcs; i++) {
            membership.register(NodeId.client(i), bound);
        }
        if (launching) {
            procs.launchAll(nodes());
        } else {
            LOG.info("waiting for nodes {} to be started with: tebaldi node --role R --id N --zk {} --cluster {} "
                    + "--credentials {} (a copy on other machines)", nodes(), connect, spec.name(), creds.dir());
        }
        procs.awaitNodes(nodes());
    }

    /**
     * Hosts another node in the runner (e.g. the profiler monitor, the reconfiguration server), registered in
     * ZooKeeper so every node process can reach it. Call after {@link #start}.
     */
    public void addNode(NodeId id, org.tebaldi.core.runtime.Actor actor) {
        runtime.spawn(id, actor);
        membership.register(id, bound);
    }

    /**
     * Publishes the tree the cluster now runs (its active part, as tree-file YAML) in ZooKeeper, e.g. after a
     * reconfiguration; every node logs the new version.
     */
    public void publishTree(org.tebaldi.core.tree.CcTree tree) {
        try (ClusterStore store = new ClusterStore(zk, new ZkPaths(spec.name()))) {
            store.publishTree(TreeLoader.toYaml(tree.activeSpec()));
        }
    }

    private NodeId liveCoordinatorAfter(NodeId dead) {
        int n = spec.config().coordinators();
        for (int k = 1; k < n; k++) {
            NodeId c = NodeId.tc((dead.index() + k) % n);
            if (!failed.contains(c) && membership.addressOf(c) != null) {
                return c;
            }
        }
        return null;
    }

    /**
     * Restarts node {@code n} after its process died (e.g. a data server killed with SIGKILL restarts from its
     * store, dissertation §4.5.4): waits until the cluster saw it leave, launches it again with the same command
     * (its output appended to the same log) and waits until it registered.
     *
     * @throws IllegalStateException if nodes were not launched by this cluster, {@code n} still runs, or it does not
     *                               come back within the start timeout
     */
    public void restart(NodeId n) throws InterruptedException {
        procs.relaunch(n, List.of());
    }

    /**
     * Promotes a backup after data server {@code n}'s process died (replication on; docs/mechanisms.md
     * "Replication"), as an operator's decision (under {@code failover: auto} the cluster does it by itself): the
     * decision is recorded in ZooKeeper, then, as {@link #restart}, the process is started again, opening the replica
     * of {@code n}'s partition kept by data server {@code host} — on its directory, once the backup closed it —
     * instead of {@code n}'s own store.
     *
     * @throws IllegalStateException as {@link #restart}, or if {@code n}'s failover was decided already or
     *                               {@code host} keeps no replica of it
     */
    public void promote(NodeId n, int host) throws InterruptedException {
        failover.promote(n.index(), host);
    }

    /** The promotions carried out by this cluster so far (automatic or by {@link #promote}), in order. */
    public List<AutoFailover.Promotion> promotions() {
        return failover == null ? List.of() : failover.promotions();
    }

    /**
     * Waits until every data server failure seen so far was failed over (or found nothing to promote) — e.g. before
     * the final state is collected, so a take-over under way when the run ends is finished first.
     *
     * @return false if {@code timeoutMillis} ms passed first
     */
    public boolean awaitFailovers(long timeoutMillis) throws InterruptedException {
        return failover == null || failover.awaitIdle(timeoutMillis);
    }

    /** Why automatic promotions failed so far (empty if none did). */
    public List<String> failoverErrors() {
        return failover == null ? List.of() : failover.errors();
    }

    /** Where node {@code n}'s output goes. */
    public Path logOf(NodeId n) {
        return spec.logDir().resolve(n + ".log");
    }

    /** The client API of endpoint {@code i} (bound to coordinator {@code i % coordinators}, failing over). */
    public TxnClient client(int i) {
        return clients.get(Math.floorMod(i, clients.size())).api();
    }

    /** The control endpoint. */
    public ControlNode control() {
        return control;
    }

    /** The runner's runtime (its message counters count the clients' messages). */
    public EmbeddedRuntime runtime() {
        return runtime;
    }

    /** The ZooKeeper connect string in use. */
    public String zkConnectString() {
        return connect;
    }

    /** Nodes whose ZooKeeper session ended during the run. */
    public Set<NodeId> failedNodes() {
        return new TreeSet<>(failed);
    }

    /** The process of a launched node, or null. */
    public Process process(NodeId n) {
        return procs == null ? null : procs.process(n);
    }

    /** True if a launched process has exited (unexpected before {@link #close}). */
    public boolean anyExited() {
        return procs != null && procs.anyExited();
    }

    /** Stops every node (asked, then forced after 5 s), the runtime and ZooKeeper. Idempotent. */
    @Override
    public synchronized void close() {
        if (procs != null) {
            procs.closing();
        }
        if (failover != null) {
            failover.close();
        }
        if (control != null) {
            for (NodeId n : nodes()) {
                if (!failed.contains(n)) {
                    control.shutdown(n);
                }
            }
        }
        if (procs != null) {
            procs.awaitExit();
        }
        if (membership != null) {
            membership.close();
            membership = null;
        }
        if (runtime != null) {
            runtime.close();
            runtime = null;
        }
        if (zk != null) {
            zk.close();
            zk = null;
        }
        if (embeddedZk != null) {
            embeddedZk.close();
            embeddedZk = null;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }

    private void destroyAll() {
        if (procs != null) {
            procs.destroyAll();
        }
    }
}
