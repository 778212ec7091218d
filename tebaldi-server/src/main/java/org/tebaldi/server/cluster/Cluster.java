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
 * #start}, use {@link #client}, then {@link #close}.
 */
public final class Cluster implements AutoCloseable {
    private final NodeRuntime runtime;
    private final ClusterConfig cfg;
    private final List<TransactionCoordinator> tcs = new ArrayList<>();
    private final List<DataServer> dss = new ArrayList<>();
    private final List<ClientNode> clients = new ArrayList<>();
    private boolean started;
    private final Map<NodeId, Actor> extra = new java.util.LinkedHashMap<>();
    private boolean allServices;

    /** @param expectedKeysPerDs capacity hint for each data server's store */
    public Cluster(NodeRuntime runtime, ClusterConfig cfg, int expectedKeysPerDs) {
        this.runtime = runtime;
        this.cfg = cfg;
        for (int i = 0; i < cfg.dataServers(); i++) {
            DataServer d = new DataServer(i, cfg, expectedKeysPerDs);
            NodeId id = NodeId.ds(i);
            d.openLog(task -> runtime.inject(id, new org.tebaldi.server.durability.LogStore.Callback(task)));
            dss.add(d);
        }
        for (int i = 0; i < cfg.coordinators(); i++) {
            tcs.add(new TransactionCoordinator(i, cfg));
            clients.add(new ClientNode(NodeId.client(i), NodeId.tc(i), cfg.db(), runtime));
        }
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
            cfg.mechanism(n).services().forEach((role, factory) -> {
                Class<?> c = factory.get().getClass();
                Class<?> prev = classes.putIfAbsent(role, c);
                if (prev != null && prev != c) {
                    throw new IllegalStateException("mechanisms disagree on the " + role + " service: " + prev.getName()
                            + " vs " + c.getName());
                }
                out.putIfAbsent(role, factory);
            });
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
        svc.forEach((role, factory) -> runtime.spawn(new NodeId(role, 0), factory.get()));
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
        if (started || !cfg.recordHistory()) {
            throw new IllegalStateException(started ? "stream the history before start"
                    : "the history is not recorded (verify is off)");
        }
        org.tebaldi.core.history.HistoryStream s = new org.tebaldi.core.history.HistoryStream(tcs.size() + dss.size());
        for (int i = 0; i < tcs.size(); i++) {
            tcs.get(i).streamHistory(s, i, periodMicros);
        }
        for (int i = 0; i < dss.size(); i++) {
            dss.get(i).streamHistory(s, tcs.size() + i, periodMicros);
        }
        return s;
    }

    /** Streamed checking: every node's last hand-over (remaining committed versions). Call once it stopped. */
    public void finishHistoryStream() {
        tcs.forEach(TransactionCoordinator::handOverHistory);
        dss.forEach(DataServer::finishHistoryStream);
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

    /** Stops every node, then closes the data servers' log stores. */
    @Override
    public void close() {
        runtime.close();
        for (DataServer d : dss) {
            d.closeLog();
        }
    }
}
