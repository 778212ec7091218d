package org.tebaldi.server.cluster;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;

/**
 * Node failures of a {@link Cluster} on the simulated runtime (docs/simulation.md, "Faults"): crashed coordinators
 * and client failover, lost singleton services and their terms, data servers restarted from their log or replaced
 * by a promoted backup. It also spawns the singleton services (their first term) and keeps the epoch service's
 * commit records, which outlive its instances. The replacement data servers are built as every data server is
 * (their features from the configuration, {@code DataServer}). Called from the simulation's thread, between events.
 */
final class SimFaults {
    private final Cluster cluster;
    private final ClusterConfig cfg;
    private Map<Role, Supplier<Actor>> serviceFactories = Map.of();
    /** The epoch service's commit records: outlive its instances (as ZooKeeper outlives a process). */
    private final org.tebaldi.server.epoch.MemoryDecisionLog decisionLog;
    private int promotions;
    private final java.util.Set<Integer> crashedTcs = new java.util.TreeSet<>();
    private final Map<Role, Long> terms = new EnumMap<>(Role.class);
    private final Map<Role, Actor> serviceInstances = new EnumMap<>(Role.class);

    SimFaults(Cluster cluster) {
        this.cluster = cluster;
        this.cfg = cluster.config();
        this.decisionLog = new org.tebaldi.server.epoch.MemoryDecisionLog(
                m -> cluster.runtime().inject(new NodeId(Role.EPOCH, 0), m));
    }

    /** Spawns the first term of every singleton service in {@code svc} (at the cluster's start). */
    void spawnServices(Map<Role, Supplier<Actor>> svc) {
        serviceFactories = svc;
        svc.forEach((role, factory) -> {
            terms.put(role, 1L);
            Actor a = withDecisionLog(factory.get());
            serviceInstances.put(role, a);
            cluster.runtime().spawn(new NodeId(role, 0), a);
        });
    }

    /**
     * Failover of a client endpoint after a {@link #crashCoordinator}: the next coordinator after {@code dead} that
     * has not crashed; null (stay unbound) if there is none or {@code dead} was not crashed through this cluster.
     */
    NodeId liveCoordinatorAfter(NodeId dead) {
        if (!crashedTcs.contains(dead.index())) {
            return null;
        }
        for (int k = 1; k <= cluster.coordinators().size(); k++) {
            int i = (dead.index() + k) % cluster.coordinators().size();
            if (!crashedTcs.contains(i)) {
                return NodeId.tc(i);
            }
        }
        return null;
    }

    private SimulatedRuntime sim(String what) {
        if (!(cluster.runtime() instanceof SimulatedRuntime s)) {
            throw new IllegalStateException(what + " needs the simulated runtime, not "
                    + cluster.runtime().getClass().getSimpleName());
        }
        if (!cluster.started()) {
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
        s.faults().crash(dead);
        NodeDown down = new NodeDown(dead, dead + " crashed (simulated; its ZooKeeper session ended)");
        for (NodeId n : s.nodeIds()) {
            if (!n.equals(dead) && !s.faults().crashed(n)) {
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
    void crashCoordinator(int index, long detectMicros) {
        SimulatedRuntime s = sim("crashing a coordinator");
        if (index < 0 || index >= cluster.coordinators().size() || crashedTcs.contains(index)) {
            throw new IllegalArgumentException("no live coordinator tc" + index);
        }
        if (crashedTcs.size() + 1 == cluster.coordinators().size()) {
            throw new IllegalStateException("tc" + index + " is the last live coordinator");
        }
        crashedTcs.add(index);
        crashAndNotify(s, NodeId.tc(index), detectMicros);
    }

    /** Coordinators crashed so far (indexes). */
    java.util.Set<Integer> crashedCoordinators() {
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
    long failService(Role role, long detectMicros, long takeOverMicros) {
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
            s.faults().respawn(id, a);
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
     * {@link Cluster#dataServers()} holds the new instance from the restart on.
     *
     * @throws IllegalStateException    not simulated, not started, or durability is off
     * @throws IllegalArgumentException no such data server, or it is down already
     */
    void restartDataServer(int index, long detectMicros, long restartAfterMicros, Runnable storeCrash) {
        SimulatedRuntime s = sim("restarting a data server");
        if (!cfg.durability().enabled()) {
            throw new IllegalStateException("restarting a data server needs durability (a log to restart from)");
        }
        NodeId id = NodeId.ds(index);
        if (index < 0 || index >= cluster.dataServers().size() || s.faults().crashed(id)) {
            throw new IllegalArgumentException("no live data server ds" + index);
        }
        crashAndNotify(s, id, detectMicros);
        storeCrash.run();
        s.at(s.nowMicros() + restartAfterMicros, () -> {
            DataServer d = new DataServer(index, cfg, cluster.expectedKeysPerDs(), cluster.toSelf(id), null);
            cluster.replaceDataServer(index, d);
            s.faults().respawn(id, d);
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
    int failoverDataServer(int index, long detectMicros, long takeOverMicros) {
        SimulatedRuntime s = sim("failing over a data server");
        org.tebaldi.server.replica.ReplicationOptions r = cfg.replication();
        if (!r.enabled()) {
            throw new IllegalStateException("failing over a data server needs replication (factor >= 2)");
        }
        NodeId id = NodeId.ds(index);
        if (index < 0 || index >= cluster.dataServers().size() || s.faults().crashed(id)) {
            throw new IllegalArgumentException("no live data server ds" + index);
        }
        int host = promotable(index);
        if (host < 0) {
            throw new IllegalStateException("no live backup of ds" + index + " keeps a replica to promote");
        }
        crashAndNotify(s, id, detectMicros);
        s.at(s.nowMicros() + Math.max(takeOverMicros, detectMicros), () -> {
            org.tebaldi.server.durability.LogStore replica = null;
            // the first backup still alive at the take-over
            for (int b : r.backupsOf(index, cluster.dataServers().size())) {
                if (!s.faults().crashed(NodeId.ds(b)) && backupsAt(b) != null && backupsAt(b).keeps(index)) {
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
            DataServer d = new DataServer(index, cfg, cluster.expectedKeysPerDs(), cluster.toSelf(id), promoted);
            cluster.replaceDataServer(index, d);
            s.faults().respawn(id, d);
        });
        return host;
    }

    /**
     * The first live data server keeping a replica of partition {@code index} that {@link #failoverDataServer}
     * would promote; -1 if none (replication off, every backup failed, or the partition was promoted before).
     */
    int promotable(int index) {
        if (!cfg.replication().enabled() || !(cluster.runtime() instanceof SimulatedRuntime s)) {
            return -1;
        }
        for (int b : cfg.replication().backupsOf(index, cluster.dataServers().size())) {
            if (!s.faults().crashed(NodeId.ds(b)) && backupsAt(b) != null && backupsAt(b).keeps(index)) {
                return b;
            }
        }
        return -1;
    }

    /** Backups promoted so far ({@link #failoverDataServer}). */
    int promotions() {
        return promotions;
    }

    /**
     * The instance of singleton service {@code role} spawned last (the current term's after a {@link #failService}),
     * or null if none runs — e.g. the {@link org.tebaldi.server.epoch.EpochService} for its counters.
     */
    Actor service(Role role) {
        return serviceInstances.get(role);
    }

    /** The current term (epoch) of service {@code role}: 1, then +1 per {@link #failService}; 0 if it does not run. */
    long term(Role role) {
        return terms.getOrDefault(role, 0L);
    }

    /** The replicas data server {@code b} keeps (null unless replication and durability are on). */
    private org.tebaldi.server.replica.BackupReplicas backupsAt(int b) {
        return cluster.dataServers().get(b).replication()
                .map(org.tebaldi.server.ds.DsReplication::backupReplicas).orElse(null);
    }
}
