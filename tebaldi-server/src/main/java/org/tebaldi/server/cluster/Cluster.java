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
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.core.runtime.SimulatedRuntime;
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
    private Map<Role, Supplier<Actor>> serviceFactories = Map.of();
    /** The epoch service's commit records: outlive its instances (as ZooKeeper outlives a process). */
    private final org.tebaldi.server.epoch.MemoryDecisionLog decisionLog =
            new org.tebaldi.server.epoch.MemoryDecisionLog(m -> runtime().inject(new NodeId(Role.EPOCH, 0), m));
    private int promotions;
    private final java.util.Set<Integer> crashedTcs = new java.util.TreeSet<>();
    private final Map<Role, Long> terms = new EnumMap<>(Role.class);
    private final Map<Role, Actor> serviceInstances = new EnumMap<>(Role.class);

    /** @param expectedKeysPerDs capacity hint for each data server's store */
    public Cluster(NodeRuntime runtime, ClusterConfig cfg, int expectedKeysPerDs) {
        this.runtime = runtime;
        this.cfg = cfg;
        this.expectedKeysPerDs = expectedKeysPerDs;
        for (int i = 0; i < cfg.dataServers(); i++) {
            dss.add(new DataServer(i, cfg, expectedKeysPerDs, toSelf(NodeId.ds(i)), null));
        }
        for (int i = 0; i < cfg.coordinators(); i++) {
            tcs.add(new TransactionCoordinator(i, cfg));
            ClientNode c = new ClientNode(NodeId.client(i), NodeId.tc(i), cfg.db(), runtime);
            c.setFailover(this::liveCoordinatorAfter);
            c.setRequestTimeout(CLIENT_TIMEOUT_FACTOR * cfg.txnTimeoutMicros());
            clients.add(c);
        }
    }

    /** Runs a log store's callback on node {@code id}'s thread. */
    private java.util.concurrent.Executor toSelf(NodeId id) {
        return task -> runtime.inject(id, new org.tebaldi.server.durability.LogStore.Callback(task));
    }

    /** The replicas data server {@code b} keeps (null unless replication and durability are on). */
    private org.tebaldi.server.replica.BackupReplicas backupsAt(int b) {
        return dss.get(b).replication().map(org.tebaldi.server.ds.DsReplication::backupReplicas).orElse(null);
    }

    /**
     * Failover of a client endpoint after a {@link #crashCoordinator}: the next coordinator after {@code dead} that
     * has not crashed; null (stay unbound) if there is none or {@code dead} was not crashed through this cluster.
     */
    private NodeId liveCoordinatorAfter(NodeId dead) {
        if (!crashedTcs.contains(dead.index())) {
            return null;
        }
        for (int k = 1; k <= tcs.size(); k++) {
            int i = (dead.index() + k) % tcs.size();
            if (!crashedTcs.contains(i)) {
                return NodeId.tc(i);
            }
        }
        return null;
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

    /**
     * Starts the service nodes of every registered mechanism, not only those of the initial tree — needed when the
     * tree may be reconfigured to mechanisms it does not use yet.
     */
    /** Every mechanism's service actors, by role (for clusters that may be reconfigured to any mechanism). */
    public static Map<Role, Supplier<Actor>> allServices(ClusterConfig cfg) {
        Map<Role, Supplier<Actor>> svc = new EnumMap<>(services(cfg));
        org.tebaldi.core.cc.Mechanisms.all().values().forEach(m -> m.services().forEach(svc::putIfAbsent));
        return svc;
    }

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
        Map<Role, Supplier<Actor>> svc = new EnumMap<>(services(cfg));
        if (allServices) {
            org.tebaldi.core.cc.Mechanisms.all().values().forEach(m -> m.services().forEach(svc::putIfAbsent));
        }
        serviceFactories = svc;
        svc.forEach((role, factory) -> {
            terms.put(role, 1L);
            Actor a = withDecisionLog(factory.get());
            serviceInstances.put(role, a);
            runtime.spawn(new NodeId(role, 0), a);
        });
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
            if (!crashedTcs.contains(i)) {
                tcs.get(i).dropCaches();
            }
        }
    }

    /**
     * The CC counters of this cluster ({@link org.tebaldi.core.cc.TcPart#counters}, e.g. Sundial's cache hits, and
     * {@link org.tebaldi.core.cc.DsPart#counters}, e.g. DST's snapshot reads), summed by name over the coordinators
     * still running and the data servers; approximate while the cluster runs.
     */
    public java.util.Map<String, Long> ccCounters() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (int i = 0; i < tcs.size(); i++) {
            if (!crashedTcs.contains(i)) {
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
        List<HistoryLog> logs = new ArrayList<>();
        for (TransactionCoordinator t : tcs) {
            if (t.history() != null) {
                logs.add(t.history());
            }
        }
        for (DataServer d : dss) {
            if (d.history() != null) {
                logs.add(d.history());
            }
        }
        return logs;
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

    // ---- faults (simulated runtime only; docs/simulation.md, "Faults") -----------------------------------------

    private SimulatedRuntime sim(String what) {
        if (!(runtime instanceof SimulatedRuntime s)) {
            throw new IllegalStateException(what + " needs the simulated runtime, not " + runtime.getClass().getSimpleName());
        }
        if (!started) {
            throw new IllegalStateException(what + " needs a started cluster");
        }
        return s;
    }

    /**
     * Crashes node {@code dead} and, {@code detectMicros} µs later, tells every other live node — the failure
     * detector of process mode (ZooKeeper membership, {@code zk.Membership}): each gets {@link NodeDown} after
     * whatever the dead node sent it before it died (in process mode the notice comes a session timeout later).
     */
    private void crashAndNotify(SimulatedRuntime s, NodeId dead, long detectMicros) {
        s.crash(dead);
        NodeDown down = new NodeDown(dead, dead + " crashed (simulated; its ZooKeeper session ended)");
        for (NodeId n : s.nodeIds()) {
            if (!n.equals(dead) && !s.crashed(n)) {
                s.notifyAfterLink(dead, n, down, detectMicros);
            }
        }
    }

    /**
     * Crashes coordinator {@code index} (simulated runtime): its transactions are lost with it; {@code detectMicros}
     * µs later every node gets {@link NodeDown} — data servers abort its transactions, client endpoints fail the
     * futures it held ({@code outcomeUnknown} where a commit may have happened) and fail over to the next live
     * coordinator. It does not come back (its id's transactions are refused by the data servers from then on).
     *
     * @throws IllegalStateException    not simulated or not started, or it is the last live coordinator
     * @throws IllegalArgumentException no such coordinator, or it crashed already
     */
    public void crashCoordinator(int index, long detectMicros) {
        SimulatedRuntime s = sim("crashing a coordinator");
        if (index < 0 || index >= tcs.size() || crashedTcs.contains(index)) {
            throw new IllegalArgumentException("no live coordinator tc" + index);
        }
        if (crashedTcs.size() + 1 == tcs.size()) {
            throw new IllegalStateException("tc" + index + " is the last live coordinator");
        }
        crashedTcs.add(index);
        crashAndNotify(s, NodeId.tc(index), detectMicros);
    }

    /** Coordinators crashed so far (indexes). */
    public java.util.Set<Integer> crashedCoordinators() {
        return java.util.Collections.unmodifiableSet(crashedTcs);
    }

    /**
     * Loses the singleton service {@code role} (timestamp service or batch manager) the way a ZooKeeper session
     * loss does in process mode ({@code zk.Election}): its instance crashes, every node gets {@link NodeDown}
     * {@code detectMicros} µs later (coordinators abort their live transactions and rebuild their CC parts; waits
     * on the old instance end), and {@code takeOverMicros} µs after the crash a new instance is elected under the
     * same address with the next term (epoch): a timestamp service issues above {@code epoch << 40}, so timestamps
     * keep increasing strictly across terms; a batch manager refuses checks on batches of earlier terms.
     *
     * @return the new term's epoch (the first term is 1)
     * @throws IllegalStateException    not simulated or not started
     * @throws IllegalArgumentException the tree's mechanisms run no such service, or it is down (crashed and not
     *                                  yet taken over)
     */
    public long failService(Role role, long detectMicros, long takeOverMicros) {
        SimulatedRuntime s = sim("failing a service");
        Supplier<Actor> factory = serviceFactories.get(role);
        if (factory == null) {
            throw new IllegalArgumentException("no " + role.cli() + " service runs in this cluster");
        }
        NodeId id = new NodeId(role, 0);
        long epoch = terms.merge(role, 1L, Long::sum);
        crashAndNotify(s, id, detectMicros);
        s.at(s.nowMicros() + takeOverMicros, () -> {
            Actor a = withDecisionLog(factory.get());
            if (a instanceof org.tebaldi.core.service.ElectedService e) {
                e.startTerm(epoch);
            }
            serviceInstances.put(role, a);
            s.respawn(id, a);
            if (role == Role.EPOCH) {
                // the new leader reads the membership (ZooKeeper in process mode): coordinators gone before it was
                // elected are not members of its epochs
                crashedTcs.forEach(i -> s.inject(id, new NodeDown(NodeId.tc(i), "tc" + i + " left before this term")));
            }
        });
        return epoch;
    }

    private Actor withDecisionLog(Actor a) {
        if (a instanceof org.tebaldi.server.epoch.EpochService e) {
            e.useDecisionLog(decisionLog);
        }
        return a;
    }

    /**
     * Crashes data server {@code index} and restarts it from its durable log (simulated runtime, durability on;
     * dissertation §4.5.4): at the crash {@code storeCrash} runs (e.g. {@code MemoryLogStore#crash}: what a power
     * loss keeps of the unsynced writes), every node gets {@link NodeDown} {@code detectMicros} µs later
     * (coordinators abort the transactions it took part in), and {@code restartAfterMicros} µs after the crash a
     * new data server opens the same store under the same id: it finds data, asks coordinator 0 for a recovery
     * round, and the whole cluster recovers (every data server rebuilds from its log; committed transactions of an
     * epoch not persisted everywhere are lost and their clients told) while the other nodes keep running.
     * {@link #dataServers()} holds the new instance from the restart on.
     *
     * @throws IllegalStateException    not simulated, not started, or durability is off
     * @throws IllegalArgumentException no such data server, or it is down already
     */
    public void restartDataServer(int index, long detectMicros, long restartAfterMicros, Runnable storeCrash) {
        SimulatedRuntime s = sim("restarting a data server");
        if (!cfg.durability().enabled()) {
            throw new IllegalStateException("restarting a data server needs durability (a log to restart from)");
        }
        NodeId id = NodeId.ds(index);
        if (index < 0 || index >= dss.size() || s.crashed(id)) {
            throw new IllegalArgumentException("no live data server ds" + index);
        }
        crashAndNotify(s, id, detectMicros);
        storeCrash.run();
        s.at(s.nowMicros() + restartAfterMicros, () -> {
            DataServer d = new DataServer(index, cfg, expectedKeysPerDs, toSelf(id), null);
            dss.set(index, d);
            s.respawn(id, d);
        });
    }

    /**
     * Crashes data server {@code index} and promotes a backup (simulated runtime, replication on; docs/mechanisms.md
     * "Replication"): every node gets {@link NodeDown} {@code detectMicros} µs later (coordinators abort the
     * transactions it took part in; its backups close their replicas of it) and {@code takeOverMicros} µs after the
     * crash (at least {@code detectMicros}) a new data server for the partition starts from the replica kept by its
     * first live backup — the dead primary's own store is not read — and recovers from it as a restarted server
     * does. The promoted server ships to no backups. If every backup keeping a replica failed by the take-over, the
     * partition restarts from its own store instead (as {@link #restartDataServer}, nothing promoted). {@link
     * #dataServers()} holds the new server from the take-over on.
     *
     * @return the index of the data server whose replica was promoted
     * @throws IllegalStateException    not simulated, replication off, or no live backup keeps a replica
     * @throws IllegalArgumentException no such data server, or it is down already
     */
    public int failoverDataServer(int index, long detectMicros, long takeOverMicros) {
        SimulatedRuntime s = sim("failing over a data server");
        org.tebaldi.server.replica.ReplicationOptions r = cfg.replication();
        if (!r.enabled()) {
            throw new IllegalStateException("failing over a data server needs replication (factor >= 2)");
        }
        NodeId id = NodeId.ds(index);
        if (index < 0 || index >= dss.size() || s.crashed(id)) {
            throw new IllegalArgumentException("no live data server ds" + index);
        }
        int host = promotable(index);
        if (host < 0) {
            throw new IllegalStateException("no live backup of ds" + index + " keeps a replica to promote");
        }
        crashAndNotify(s, id, detectMicros);
        s.at(s.nowMicros() + Math.max(takeOverMicros, detectMicros), () -> {
            org.tebaldi.server.durability.LogStore replica = null;
            for (int b : r.backupsOf(index, dss.size())) { // the first backup still alive at the take-over
                if (!s.crashed(NodeId.ds(b)) && backupsAt(b) != null && backupsAt(b).keeps(index)) {
                    replica = backupsAt(b).handOver(index);
                    break;
                }
            }
            org.tebaldi.server.durability.LogStore.Factory promoted = null;
            if (replica instanceof org.tebaldi.server.durability.MemoryLogStore m) {
                m.awaitWritten(); // the backup is alive: everything it wrote is there (memory stores model a crash)
                promoted = (ds, catalog, owner) -> m.open(catalog, owner);
                promotions++;
            } // else every backup failed meanwhile: the partition restarts from its own store
            DataServer d = new DataServer(index, cfg, expectedKeysPerDs, toSelf(id), promoted);
            dss.set(index, d);
            s.respawn(id, d);
        });
        return host;
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

    /**
     * The first live data server keeping a replica of partition {@code index} that {@link #failoverDataServer}
     * would promote; -1 if none (replication off, every backup failed, or the partition was promoted before).
     */
    public int promotable(int index) {
        if (!cfg.replication().enabled() || !(runtime instanceof SimulatedRuntime s)) {
            return -1;
        }
        for (int b : cfg.replication().backupsOf(index, dss.size())) {
            if (!s.crashed(NodeId.ds(b)) && backupsAt(b) != null && backupsAt(b).keeps(index)) {
                return b;
            }
        }
        return -1;
    }

    /** Backups promoted so far ({@link #failoverDataServer}). */
    public int promotions() {
        return promotions;
    }

    /**
     * The instance of singleton service {@code role} spawned last (the current term's after a {@link #failService}),
     * or null if none runs — e.g. the {@link org.tebaldi.server.epoch.EpochService} for its counters.
     */
    public Actor service(Role role) {
        return serviceInstances.get(role);
    }

    /** The current term (epoch) of service {@code role}: 1, then +1 per {@link #failService}; 0 if it does not run. */
    public long term(Role role) {
        return terms.getOrDefault(role, 0L);
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
