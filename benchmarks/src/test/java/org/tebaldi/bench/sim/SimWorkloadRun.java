package org.tebaldi.bench.sim;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.tebaldi.bench.run.ClusterSnapshot;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;

/**
 * Any {@link Workload} on a simulated cluster (deterministic per seed, virtual time, history recorded): loads its
 * data, runs its closed-loop clients for a fixed number of transactions each (a retryable abort re-runs the same
 * request after a random back-off; anything else fails the run), then exposes the workload's consistency check on
 * the final committed state and the serializability check of the merged history. Procedures' long outputs are
 * summed per type and output name (e.g. how many new_reservations reserved a seat).
 */
public final class SimWorkloadRun implements AutoCloseable {
    private final Workload workload;
    private final SimulatedRuntime sim;
    private final Cluster cluster;
    private final long seed;
    private final Map<String, Integer> committed = new TreeMap<>();
    private final Map<String, Long> outputs = new TreeMap<>();
    private int retries;
    private Throwable failure;

    /** A run under the standard mechanisms. */
    public SimWorkloadRun(Workload w, CcTree tree, long seed, SimulatedRuntime.Model model, int tcs, int dss) {
        this(w, tree, seed, model, tcs, dss, Mechanisms::get);
    }

    /** @param mechanisms how the tree's mechanism names resolve (tests plug in a broken one) */
    public SimWorkloadRun(Workload w, CcTree tree, long seed, SimulatedRuntime.Model model, int tcs, int dss,
                          Function<String, Mechanism> mechanisms) {
        this.workload = w;
        this.seed = seed;
        this.sim = new SimulatedRuntime(seed, model);
        this.cluster = new Cluster(sim, new ClusterConfig(w.database(), tree, tcs, dss, w.partitioner(dss), true)
                .withMechanisms(mechanisms), 1024);
        w.load(new DataLoader() {
            @Override
            public void expect(String table, long rows) {
                w.database().catalog().table(table);
            }

            @Override
            public void load(Key key, Row row) {
                cluster.load(key, row);
            }
        }, Progress.NONE);
        cluster.start();
    }

    /**
     * Runs {@code clients} closed-loop clients of {@code txnsEach} transactions each until all finished.
     *
     * @throws AssertionError if a transaction fails for good, a node threw, or the clients do not finish within
     *                        {@link SimDriver#LIMIT_MICROS} of virtual time (liveness), or a transaction is left running
     */
    public void runClients(int clients, int txnsEach) {
        int[] finished = {0};
        Random rnd = new Random(seed);
        for (int i = 0; i < clients; i++) {
            ClientSource gen = workload.newClient(i, seed * 31 + i);
            TxnClient api = cluster.client(i);
            Random r = new Random(rnd.nextLong());
            int[] left = {txnsEach};
            Runnable[] loop = new Runnable[1];
            loop[0] = () -> {
                if (left[0]-- == 0) {
                    finished[0]++;
                    return;
                }
                TxnRequest req = gen.next();
                submit(api, req, sim.nowMicros(), r, v -> sim.at(sim.nowMicros() + r.nextInt(100), loop[0]));
            };
            sim.at(r.nextInt(500), loop[0]);
        }
        SimDriver.await(sim, cluster, seed, () -> finished[0] == clients, () -> failure,
                () -> finished[0] + " of " + clients + " clients finished");
    }

    /**
     * Runs one request to commit on client endpoint 0 (retrying retryable aborts).
     *
     * @return a procedure's outputs map, or an interactive body's result
     * @throws AssertionError if it fails otherwise or does not finish
     */
    public Object run(TxnRequest req) {
        Object[] out = {null};
        boolean[] done = {false};
        submit(cluster.client(0), req, sim.nowMicros(), new Random(seed), v -> {
            out[0] = v;
            done[0] = true;
        });
        SimDriver.await(sim, cluster, seed, () -> done[0], () -> failure, () -> req.type() + " did not finish");
        return out[0];
    }

    private void submit(TxnClient api, TxnRequest req, long priority, Random r, Consumer<Object> onCommit) {
        SimDriver.attempt(api, req, priority).whenComplete((v, e) -> {
            if (e == null) {
                committed.merge(req.type(), 1, Integer::sum);
                if (req.isProcedure()) {
                    ((Map<?, ?>) v).forEach((k, x) -> {
                        if (x instanceof Long n) {
                            outputs.merge(req.type() + "." + k, n, Long::sum);
                        }
                    });
                }
                onCommit.accept(v);
                return;
            }
            Throwable c = SimDriver.unwrap(e);
            if (SimDriver.retryable(c)) {
                retries++;
                sim.at(sim.nowMicros() + 100 + r.nextInt(2000), () -> submit(api, req, priority, r, onCommit));
            } else if (failure == null) {
                failure = new AssertionError(req.type() + " " + req.inputs() + " failed: " + c, c);
            }
        });
    }

    /** The workload's consistency conditions on the latest committed state of every key. */
    public ConsistencyResult consistency() {
        return workload.check(snapshot());
    }

    /** The latest committed state of every key (call between runs, when nothing is in flight). */
    public ClusterSnapshot snapshot() {
        return ClusterSnapshot.of(workload.database().catalog(),
                cluster.dataServers().stream().map(DataServer::store).toList());
    }

    /** The serializability check of the merged history. */
    public CheckResult serializability() {
        return SerializabilityChecker.check(History.merge(cluster.historyLogs()));
    }

    /** Messages sent so far, by class ({@link org.tebaldi.core.runtime.MessageStats}). */
    public org.tebaldi.core.runtime.MessageStats messages() {
        return sim.stats();
    }

    /** The cluster (for debugging aids). */
    public Cluster cluster() {
        return cluster;
    }

    /** Committed transactions per type. */
    public Map<String, Integer> committed() {
        return committed;
    }

    /** Sums of procedures' long outputs by {@code type.output}. */
    public Map<String, Long> outputs() {
        return outputs;
    }

    /** Sum of a procedure's long output over its committed transactions, e.g. {@code new_reservation.reserved}. */
    public long outputSum(String typeDotOutput) {
        return outputs.getOrDefault(typeDotOutput, 0L);
    }

    /** Retried attempts. */
    public int retries() {
        return retries;
    }

    @Override
    public void close() {
        cluster.close();
    }
}
