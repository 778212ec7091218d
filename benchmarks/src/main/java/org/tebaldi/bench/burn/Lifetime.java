package org.tebaldi.bench.burn;

import java.util.function.Function;
import org.tebaldi.autoconf.reconfig.ReconfigServer;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.durability.DurabilityOptions;
import org.tebaldi.server.durability.MemoryLogStore;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.sim.SimWorkload;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * One lifetime of a burn run's cluster on its own simulated runtime: built, loaded (or recovered from the durable
 * logs of an earlier lifetime that crashed, as {@code DurabilitySimTest} does), and started; with a reconfiguration
 * server when the scenario swaps trees.
 */
final class Lifetime {
    /** GC epochs of 1 ms (virtual), as in the conformance suite. */
    static final long GC_EPOCH_MICROS = 1_000;
    /** Durability epochs of 3 ms (virtual), asynchronous. */
    static final long DURABILITY_EPOCH_MICROS = 3_000;
    /** Transaction ids of lifetime {@code n} start above {@code n} times this. */
    static final long IDS_PER_LIFETIME = 1_000_000L;
    /**
     * Transaction timeout (coordinator, data server, client) with the default network, µs: what lost messages need,
     * as the fault tests use ({@code FaultRun}); {@link #txnTimeout} scales it with the network's delays.
     */
    static final long TXN_TIMEOUT_MICROS = 20_000;
    /** Cross-mechanism wait timeout with the default network, µs (also how soon a lost watermark request is asked
     * again), as the fault tests use. */
    static final long WAIT_TIMEOUT_MICROS = 50_000;

    /**
     * The transaction timeout of a run, µs: {@link #TXN_TIMEOUT_MICROS} plus 40 of the model's largest one-way
     * delays and pauses — a transaction of a dozen round trips must be able to commit under network jitter, or every
     * attempt times out and nothing commits.
     */
    static long txnTimeout(SimulatedRuntime.Model m) {
        return TXN_TIMEOUT_MICROS + 40 * (m.maxDelayMicros() + m.maxPauseMicros());
    }

    final SimulatedRuntime sim;
    final Cluster cluster;
    final ReconfigServer reconfig;
    /** The streamed history check beside the run, or null. */
    final StreamedHistory streamed;

    /**
     * @param index      0 for the first lifetime, then 1, 2 … after each crash
     * @param stores     one in-memory log per data server, or null without durability
     * @param reconfig   whether to add the reconfiguration server (and every service a tree may need)
     * @param streamed   whether to check the history streamed while it runs ({@link StreamedHistory})
     */
    Lifetime(Scenario s, int index, SimulatedRuntime.Model model, CcTree tree, SimWorkload workload,
          MemoryLogStore[] stores, boolean reconfig, Function<String, Mechanism> mechanisms, boolean streamed) {
        sim = new SimulatedRuntime(s.seed() + 1_000L * index, model);
        ClusterConfig cfg = new ClusterConfig(workload.database(), tree, s.coordinators(), s.dataServers(), null, true)
                .withGcEpoch(GC_EPOCH_MICROS).withMechanisms(mechanisms).withTxnTimeout(txnTimeout(model))
                .withWaitTimeout(Math.max(WAIT_TIMEOUT_MICROS, txnTimeout(model) * 5 / 2));
        if (stores != null) {
            cfg = cfg.withDurability(new DurabilityOptions(true, null, DURABILITY_EPOCH_MICROS, false,
                    MemoryLogStore.factory(stores)));
        }
        if (stores != null && s.dataServers() >= 2 && Boolean.getBoolean("tebaldi.burn.replication")) {
            // primary-backup replication (docs/mechanisms.md "Replication"): a drawn ds-restart fails the data
            // server over to its backup (FaultInjector); factor 2..3, 2PC(sync) or async by seed
            java.util.Map<Integer, MemoryLogStore> replicas = new java.util.HashMap<>();
            cfg = cfg.withReplication(new org.tebaldi.server.replica.ReplicationOptions(
                    Math.min(3, s.dataServers()), s.seed() % 2 == 0
                            ? org.tebaldi.server.replica.ReplicationOptions.Mode.SYNC
                            : org.tebaldi.server.replica.ReplicationOptions.Mode.ASYNC,
                    (p, host, catalog, owner) -> replicas.computeIfAbsent(p * 64 + host, k -> new MemoryLogStore())
                            .open(catalog, owner)));
        }
        if (Boolean.getBoolean("tebaldi.burn.epochCommit")) { // every seed under epoch-based commit (docs/mechanisms.md)
            cfg = cfg.withCommit(org.tebaldi.server.node.CommitProtocol.EPOCH, 2_000);
        }
        Cluster c = new Cluster(sim, cfg, 64);
        if (reconfig) {
            c = c.withAllServices();
            NodeId id = new NodeId(Role.CONFIGURATOR, 0);
            this.reconfig = new ReconfigServer(id, sim, s.coordinators(), s.dataServers(), tree, mechanisms)
                    .resendAfter(txnTimeout(model));
            c.addNode(id, this.reconfig);
        } else {
            this.reconfig = null;
        }
        cluster = c;
        if (cluster.restarted()) {
            cluster.coordinators().forEach(tc -> tc.startIdsAbove(IDS_PER_LIFETIME * index));
        } else {
            workload.load(cluster);
        }
        this.streamed = streamed ? new StreamedHistory(cluster, sim) : null;
        cluster.start();
    }

    /** Whether any node still recovers from its log. */
    boolean recovering() {
        return cluster.dataServers().stream().anyMatch(DataServer::recovering)
                || cluster.coordinators().stream().anyMatch(TransactionCoordinator::recovering);
    }

    /** No transaction live at a coordinator that did not crash, nor at any data server. */
    boolean quiet() {
        for (int i = 0; i < cluster.coordinators().size(); i++) {
            if (!cluster.crashedCoordinators().contains(i) && cluster.coordinators().get(i).liveTransactions() != 0) {
                return false;
            }
        }
        return cluster.dataServers().stream().allMatch(d -> d.liveTransactions() == 0);
    }

    /** Transactions still live at the coordinators (but crashed ones) and data servers, described ("" if none). */
    String live() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cluster.coordinators().size(); i++) {
            TransactionCoordinator t = cluster.coordinators().get(i);
            if (!cluster.crashedCoordinators().contains(i) && t.liveTransactions() != 0) {
                b.append(" ").append(t.liveTransactions()).append(" at a TC");
                t.describeLive(3).forEach(l -> b.append(" [").append(l).append(']'));
            }
        }
        for (int i = 0; i < cluster.coordinators().size(); i++) {
            if (!cluster.crashedCoordinators().contains(i) && cluster.coordinators().get(i).recovering()) {
                b.append(" tc").append(i).append(" recovering");
            }
        }
        for (DataServer d : cluster.dataServers()) {
            if (d.recovering()) {
                b.append(" ds").append(d.dsIndex()).append(" recovering");
            }
            if (d.liveTransactions() != 0) {
                b.append(" ").append(d.liveTransactions()).append(" at ds").append(d.dsIndex());
                d.describeLive(3).forEach(l -> b.append(" [").append(l).append(']'));
            }
        }
        return b.toString().trim();
    }
}
