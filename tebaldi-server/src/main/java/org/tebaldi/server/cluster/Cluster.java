package org.tebaldi.server.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.MessageStats;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.server.client.ClientNode;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * A whole cluster on one {@link NodeRuntime} (embedded or simulated): {@code coordinators} TCs, {@code
 * dataServers} DSs and one client endpoint per TC. Lifecycle: construct, {@link #load} the initial data, {@link
 * #start}, use {@link #client}, then {@link #close}. On the simulated runtime it also injects node failures
 * (docs/simulation.md, "Faults"): {@link #crashCoordinator}, {@link #failService}, {@link #restartDataServer}.
 */
public final class Cluster implements AutoCloseable {
    /**
     * With a transaction timeout T ({@link ClusterConfig#withTxnTimeout}) a client endpoint gives up on a request
     * unanswered for this many T (the coordinator's own abort normally answers first).
     */
    public static final int CLIENT_TIMEOUT_FACTOR = 3;

    private final NodeRuntime runtime;
    private final ClusterConfig cfg;
    private final int expectedKeysPerDs;
    private final List<TransactionCoordinator> tcs = new ArrayList<>();
    private final List<DataServer> dss = new ArrayList<>();
    private final List<ClientNode> clients = new ArrayList<>();
    private boolean started;
    private final Map<NodeId, Actor> extra = new java.util.LinkedHashMap<>();
    private boolean allServices;
    /** Node failures and the singleton services' terms. */
    private final SimFaults faults;

    /** @param expectedKeysPerDs capacity hint for each data server's store */
    public Cluster(NodeRuntime runtime, ClusterConfig cfg, int expectedKeysPerDs) {
        this.runtime = runtime;
        this.cfg = cfg;
        this.expectedKeysPerDs = expectedKeysPerDs;
        this.faults = new SimFaults(this);
        for (int i = 0; i < cfg.dataServers(); i++) {
            dss.add(new DataServer(i, cfg, expectedKeysPerDs, toSelf(NodeId.ds(i)), null));
        }
        for (int i = 0; i < cfg.coordinators(); i++) {
            tcs.add(new TransactionCoordinator(i, cfg));
            ClientNode c = new ClientNode(NodeId.client(i), NodeId.tc(i), cfg.db(), runtime);
            c.setFailover(faults::liveCoordinatorAfter);
            c.setRequestTimeout(CLIENT_TIMEOUT_FACTOR * cfg.txnTimeoutMicros());
            clients.add(c);
        }
    }

    /** Runs a log store's callback on node {@code id}'s thread. */
    java.util.concurrent.Executor toSelf(NodeId id) {
        return task -> runtime.inject(id, new org.tebaldi.server.durability.LogStore.Callback(task));
    }


    /**
     * Loads one committed row into the server that owns it (every server for a replicated table).
     *
     * @throws IllegalStateException after {@link #start}
     */
    public void load(Key key, Row row) {
        if (started) {
            throw new IllegalStateException("load before start");
        }
        if (cfg.db().catalog().table(key.table()).replicated()) {
            for (DataServer d : dss) {
                d.load(key, row);
            }
        } else {
            dss.get(cfg.partitioner().partition(key)).load(key, row);
        }
    }

    /**
     * Adds a node that is not a TC, DS, client or mechanism service (e.g. the profiler monitor), started with the
     * others.
     *
     * @throws IllegalStateException after {@link #start}
     */
    public void addNode(NodeId id, Actor actor) {
        if (started) {
            throw new IllegalStateException("add nodes before start");
        }
        extra.put(id, actor);
    }

    /**
     * The service actors the tree's mechanisms need ({@link org.tebaldi.core.cc.Mechanism#services()}), one per
     * role, in role order.
     *
     * @throws IllegalStateException if two mechanisms declare different actors for one role
     */
    public static Map<Role, Supplier<Actor>> services(ClusterConfig cfg) {
        Map<Role, Supplier<Actor>> out = new EnumMap<>(Role.class);
        Map<Role, Class<?>> classes = new EnumMap<>(Role.class);
        for (CcNode n : cfg.tree().nodes()) {
            cfg.mechanism(n).services(n).forEach((role, factory) -> {
                Class<?> c = factory.get().getClass();
                Class<?> prev = classes.putIfAbsent(role, c);
                if (prev != null && prev != c) {
                    throw new IllegalStateException("mechanisms disagree on the " + role + " service: " + prev.getName()
                            + " vs " + c.getName());
                }
                out.putIfAbsent(role, factory);
            });
        }
        if (cfg.commitProtocol() == org.tebaldi.server.node.CommitProtocol.EPOCH) {
            out.put(Role.EPOCH, () -> new org.tebaldi.server.epoch.EpochService(cfg.coordinators(), cfg.dataServers(),
                    cfg.epochMicros(), cfg.recordHistory(), cfg.durability().enabled() && cfg.durability().sync()));
        }
        return out;
    }

    /** Every mechanism's service actors, by role (for clusters that may be reconfigured to any mechanism). */
    public static Map<Role, Supplier<Actor>> allServices(ClusterConfig cfg) {
        Map<Role, Supplier<Actor>> svc = new EnumMap<>(services(cfg));
        org.tebaldi.core.cc.Mechanisms.all().values().forEach(m -> m.services().forEach(svc::putIfAbsent));
        return svc;
    }

    /**
     * Starts the service nodes of every registered mechanism, not only those of the initial tree — needed when the
     * tree may be reconfigured to mechanisms it does not use yet. Call before {@link #start}.
     */
    public Cluster withAllServices() {
        this.allServices = true;
        return this;
    }

    /**
     * Spawns every node on the runtime: service nodes, data servers, coordinators and client endpoints. With
     * durability, first waits until the loaded rows are in the data servers' stores.
     */
    public void start() {
        started = true;
        for (DataServer d : dss) {
            try {
                d.awaitLoaded();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the loaded rows were being stored", e);
            }
        }
        Map<Role, Supplier<Actor>> svc = allServices ? allServices(cfg) : services(cfg);
        faults.spawnServices(svc);
        extra.forEach(runtime::spawn);
        for (int i = 0; i < dss.size(); i++) {
            runtime.spawn(NodeId.ds(i), dss.get(i));
        }
        for (int i = 0; i < tcs.size(); i++) {
            runtime.spawn(NodeId.tc(i), tcs.get(i));
            runtime.spawn(NodeId.client(i), clients.get(i));
        }
    }

    /** The client API of endpoint {@code i} (bound to coordinator {@code i % coordinators}). */
    public TxnClient client(int i) {
        return clients.get(Math.floorMod(i, clients.size())).api();
    }

    public ClusterConfig config() {
        return cfg;
    }

    public NodeRuntime runtime() {
        return runtime;
    }

    public List<TransactionCoordinator> coordinators() {
        return Collections.unmodifiableList(tcs);
    }

    public List<DataServer> dataServers() {
        return Collections.unmodifiableList(dss);
    }

    /** Data server {@code index} is replaced by {@code d} (a restart or a promotion, {@link SimFaults}). */
    void replaceDataServer(int index, DataServer d) {
        dss.set(index, d);
    }

    /** Whether {@link #start} ran. */
    boolean started() {
        return started;
    }

    /** The capacity hint of each data server's store. */
    int expectedKeysPerDs() {
        return expectedKeysPerDs;
    }

    public MessageStats stats() {
        return runtime.stats();
    }

    /**
     * Streams the history to a {@link org.tebaldi.core.history.HistoryStream} with one source per coordinator
     * (0 .. c-1) then per data server (c .. c+d-1), each handing over every {@code periodMicros} µs, so that it is
     * checked with bounded memory while the run goes on (docs/architecture.md, "Verification"); the caller runs
     * the stream's checks. Call before {@link #start}; needs a recorded history and no durability recovery.
     *
     * @return the stream
     * @throws IllegalStateException after {@link #start} or if the history is not recorded
     */
    public org.tebaldi.core.history.HistoryStream streamHistory(long periodMicros) {
        org.tebaldi.core.history.HistoryStream s = new org.tebaldi.core.history.HistoryStream(historySources());
        handOverHistory(s, periodMicros);
        return s;
    }

    /** Nodes that hand over their history: every coordinator, then every data server. */
    public int historySources() {
        return tcs.size() + dss.size();
    }

    /**
     * Has every node hand its history over to {@code sink} every {@code periodMicros} µs, as node 0 .. c-1
     * (coordinators) and c .. c+d-1 (data servers) — a {@link org.tebaldi.core.history.HistoryStream} or a
     * {@link org.tebaldi.core.history.HistorySpill} (docs/architecture.md, "Verification"). Call before
     * {@link #start}.
     *
     * @throws IllegalStateException after {@link #start} or if the history is not recorded
     */
    public void handOverHistory(org.tebaldi.core.history.HistoryHandOver sink, long periodMicros) {
        if (started || !cfg.recordHistory()) {
            throw new IllegalStateException(started ? "stream the history before start"
                    : "the history is not recorded (verify is off)");
        }
        for (int i = 0; i < tcs.size(); i++) {
            tcs.get(i).streamHistory(sink, i, periodMicros);
        }
        for (int i = 0; i < dss.size(); i++) {
            dss.get(i).streamHistory(sink, tcs.size() + i, periodMicros);
        }
    }

    /** Streamed checking: every node's last hand-over (remaining committed versions). Call once it stopped. */
    public void finishHistoryStream() {
        tcs.forEach(TransactionCoordinator::handOverHistory);
        dss.forEach(DataServer::finishHistoryStream);
    }

    /**
     * Drops the caches of every running coordinator ({@link TransactionCoordinator#dropCaches}), e.g. before reads
     * that must see the latest committed state. Simulation: call between events.
     */
    public void dropCoordinatorCaches() {
        for (int i = 0; i < tcs.size(); i++) {
            if (!faults.crashedCoordinators().contains(i)) {
                tcs.get(i).dropCaches();
            }
        }
    }

    /**
     * The CC counters of this cluster ({@link org.tebaldi.core.cc.TcPart#counters}, e.g. a cache's hits, and
     * {@link org.tebaldi.core.cc.DsPart#counters}, e.g. DST's snapshot reads), summed by name over the coordinators
     * still running and the data servers; approximate while the cluster runs.
     */
    public java.util.Map<String, Long> ccCounters() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (int i = 0; i < tcs.size(); i++) {
            if (!faults.crashedCoordinators().contains(i)) {
                tcs.get(i).ccCounters().forEach((k, v) -> out.merge(k, v, Long::sum));
            }
        }
        for (DataServer d : dss) {
            d.ccCounters().forEach((k, v) -> out.merge(k, v, Long::sum));
        }
        return out;
    }

    /** Every node's history log (empty if recording is off). Call once the cluster is quiet or stopped. */
    public List<HistoryLog> historyLogs() {
        return java.util.stream.Stream.concat(tcs.stream().map(TransactionCoordinator::history),
                        dss.stream().map(DataServer::history)).filter(java.util.Objects::nonNull)
                .collect(java.util.stream.Collectors.toCollection(ArrayList::new));
    }

    /**
     * Whether some data server restarted from a store that held data (durability): it takes no initial rows, and
     * the cluster runs a recovery round once started.
     */
    public boolean restarted() {
        return dss.stream().anyMatch(DataServer::restarted);
    }

    /**
     * Waits until no transaction is live at any coordinator or data server — the last commit and abort messages
     * landed — polling every millisecond. Call it after the last client request finished and before {@link #close}:
     * a coordinator answers its client as soon as it decides a commit, and its commit messages may still be on their
     * way to the data servers (closing then loses them, and the recorded history shows committed writes that no data
     * server applied).
     *
     * @return true if the cluster became quiet within {@code timeoutMillis} ms
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitQuiet(long timeoutMillis) throws InterruptedException {
        long end = System.nanoTime() + timeoutMillis * 1_000_000;
        while (System.nanoTime() < end) {
            if (tcs.stream().allMatch(t -> t.liveTransactions() == 0)
                    && dss.stream().allMatch(d -> d.liveTransactions() == 0)) {
                return true;
            }
            Thread.sleep(1);
        }
        return false;
    }

    // ---- faults (simulated runtime only; docs/simulation.md, "Faults"): see SimFaults ---------------------------

    /** Crashes coordinator {@code index}: {@link SimFaults#crashCoordinator}. */
    public void crashCoordinator(int index, long detectMicros) {
        faults.crashCoordinator(index, detectMicros);
    }

    /** Coordinators crashed so far (indexes). */
    public java.util.Set<Integer> crashedCoordinators() {
        return faults.crashedCoordinators();
    }

    /** Loses service {@code role} and elects a new term: {@link SimFaults#failService}; returns its epoch. */
    public long failService(Role role, long detectMicros, long takeOverMicros) {
        return faults.failService(role, detectMicros, takeOverMicros);
    }

    /** Crashes data server {@code index} and restarts it from its log: {@link SimFaults#restartDataServer}. */
    public void restartDataServer(int index, long detectMicros, long restartAfterMicros, Runnable storeCrash) {
        faults.restartDataServer(index, detectMicros, restartAfterMicros, storeCrash);
    }

    /** Crashes data server {@code index} and promotes a backup: {@link SimFaults#failoverDataServer}. */
    public int failoverDataServer(int index, long detectMicros, long takeOverMicros) {
        return faults.failoverDataServer(index, detectMicros, takeOverMicros);
    }

    /** The data server whose replica of {@code index} a failover would promote ({@link SimFaults#promotable}). */
    public int promotable(int index) {
        return faults.promotable(index);
    }

    /** Backups promoted so far ({@link #failoverDataServer}). */
    public int promotions() {
        return faults.promotions();
    }

    /** The instance of service {@code role} spawned last (the current term's), or null if none runs. */
    public Actor service(Role role) {
        return faults.service(role);
    }

    /** The current term (epoch) of service {@code role}: 1, then +1 per {@link #failService}; 0 if it does not run. */
    public long term(Role role) {
        return faults.term(role);
    }

    /**
     * Whether every data server's backups hold its initial load (true without replication) — a runner waits for it
     * after {@link #start} so that the backups' catching up does not fall into the measured run. Any thread.
     */
    public boolean replicasLoaded() {
        for (DataServer d : dss) {
            var log = d.replication().map(org.tebaldi.server.ds.DsReplication::replicatedLog).orElse(null);
            if (log != null && !log.initialLoadReplicated()) {
                return false;
            }
        }
        return true;
    }

    /** Stops every node, then closes the data servers' log stores. */
    @Override
    public void close() {
        runtime.close();
        for (DataServer d : dss) {
            d.closeLog();
        }
    }
}
