package org.tebaldi.bench.tpcc;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.tebaldi.bench.sim.SimDriver;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;

/**
 * A TPC-C database on a simulated cluster (deterministic per seed, virtual time): loads it, runs single requests
 * or closed-loop clients (re-running a request after a retryable abort, after a random back-off), and exposes the
 * final committed state to {@link TpccConsistency} and the recorded history to the serializability checker.
 */
final class SimTpcc implements TpccConsistency.TableScan {
    final TpccBenchmark bench;
    final SimulatedRuntime sim;
    final Cluster cluster;
    final long seed;
    final Map<String, int[]> committed = new TreeMap<>();
    int retries;
    /** Districts that committed deliveries found without an undelivered order (10 - output "delivered"). */
    long skippedDeliveries;
    private Throwable failure;
    private final ClusterTables tables;

    SimTpcc(TpccConfig cfg, CcTree tree, long seed, SimulatedRuntime.Model model, int tcs, int dss) {
        this(cfg, tree, seed, model, tcs, dss, Mechanisms::get);
    }

    /** @param mechanisms how the tree's mechanism names resolve (tests plug in a broken one) */
    SimTpcc(TpccConfig cfg, CcTree tree, long seed, SimulatedRuntime.Model model, int tcs, int dss,
            Function<String, Mechanism> mechanisms) {
        this.bench = new TpccBenchmark(cfg);
        this.seed = seed;
        this.sim = new SimulatedRuntime(seed, model);
        this.cluster = new Cluster(sim, new ClusterConfig(bench.database(), tree, tcs, dss, null, true).withGcEpoch(1_000)
                .withMechanisms(mechanisms), 1024);
        bench.loader(1_700_000_000_000L).load(cluster::load, TpccLoader.Progress.NONE);
        cluster.start();
        this.tables = new ClusterTables(bench.schema().catalog(), cluster);
    }

    /** A client generator whose dates come from virtual time. */
    TpccClient client(int index) {
        return new TpccClient(bench.config(), bench.constants(), index, seed * 31 + index,
                () -> 1_700_000_000_000L + sim.nowMicros() / 1000);
    }

    /**
     * Runs one request to commit (retrying retryable aborts) on client endpoint 0.
     *
     * @return the procedure's outputs map, or the interactive body's result
     * @throws AssertionError if it fails otherwise or does not finish
     */
    Object run(TpccRequest req) {
        Object[] out = {null};
        boolean[] done = {false};
        submit(cluster.client(0), req, sim.nowMicros(), new Random(seed), v -> {
            out[0] = v;
            done[0] = true;
        });
        SimDriver.await(sim, cluster, seed, () -> done[0], () -> failure, () -> req.type() + " did not finish");
        return out[0];
    }

    /** Runs {@code clients} closed-loop clients of {@code txnsEach} transactions each until all finished. */
    void runClients(int clients, int txnsEach) {
        int[] finished = {0};
        Random rnd = new Random(seed);
        for (int i = 0; i < clients; i++) {
            TpccClient gen = client(i);
            TxnClient api = cluster.client(i);
            Random r = new Random(rnd.nextLong());
            int[] left = {txnsEach};
            Runnable[] loop = new Runnable[1];
            loop[0] = () -> {
                if (left[0]-- == 0) {
                    finished[0]++;
                    return;
                }
                submit(api, gen.next(), sim.nowMicros(), r,
                        v -> sim.at(sim.nowMicros() + r.nextInt(100), loop[0]));
            };
            sim.at(r.nextInt(500), loop[0]);
        }
        SimDriver.await(sim, cluster, seed, () -> finished[0] == clients, () -> failure,
                () -> finished[0] + " of " + clients + " clients finished");
    }

    private void submit(TxnClient api, TpccRequest req, long priority, Random r,
                        java.util.function.Consumer<Object> onCommit) {
        SimDriver.attempt(api, req.asTxnRequest(), priority).whenComplete((v, e) -> {
            if (e == null) {
                committed.computeIfAbsent(req.type(), k -> new int[1])[0]++;
                if (req.type().equals(Delivery.NAME)) {
                    skippedDeliveries += TpccConfig.DISTRICTS - (Long) ((Map<?, ?>) v).get("delivered");
                }
                onCommit.accept(v);
                return;
            }
            if (SimDriver.retryable(e)) {
                retries++;
                sim.at(sim.nowMicros() + 100 + r.nextInt(2000), () -> submit(api, req, priority, r, onCommit));
            } else if (failure == null) {
                failure = SimDriver.unwrap(e);
            }
        });
    }

    /** The latest committed row of {@code key}; null if absent or deleted. */
    Row get(Key key) {
        return tables.get(key);
    }

    Row get(TableSchema t, long... key) {
        return get(Key.of(t, key));
    }

    @Override
    public void forEach(int tableId, BiConsumer<Key, Row> visitor) {
        tables.forEach(tableId, visitor);
    }

    ConsistencyReport consistency() {
        return bench.consistency().check(this::get, this);
    }

    CheckResult serializability() {
        return SerializabilityChecker.check(History.merge(cluster.historyLogs()));
    }

    int committed(String type) {
        int[] n = committed.get(type);
        return n == null ? 0 : n[0];
    }

    int committedTotal() {
        return committed.values().stream().mapToInt(a -> a[0]).sum();
    }
}
