package org.tebaldi.bench.tpcc;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.tebaldi.bench.sim.SimDriver;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.sim.Attempts;
import org.tebaldi.server.sim.SimWorkload;

/**
 * A small TPC-C database as a {@link SimWorkload} for simulated runs (the burn test): the standard mix over
 * {@code warehouses} warehouses of 100 items, 30 customers and 10 initial orders per district; each client endpoint
 * gets its own input generator ({@link TpccClient}, dates from a counter of attempts, so a run is deterministic);
 * a retried attempt draws a new request. An attempt whose body fails on the evidence of a new order seen mid-way
 * (a delivery's user abort on an order without its lines; stock_level or order_status failing on a missing order
 * or line) is retried like a concurrency-control abort and counted ({@link #sanityAborts()}): under trees with an
 * inner TSO node an attempt can read a new order's writes before the rest of them, and such an attempt could never
 * commit (its reads form a cycle with the new order), so only committed transactions matter — the history check
 * covers them. Final check: TPC-C consistency conditions 1–4 ({@link TpccConsistency}) on
 * the latest committed rows.
 */
public final class TpccSimWorkload implements SimWorkload {
    private static final long LOAD_TIME_MILLIS = 1_700_000_000_000L;
    private final TpccBenchmark bench;
    private final Map<TxnClient, TpccClient> generators = new IdentityHashMap<>();
    private static final String ORDER_LINE_MISSING = "order line missing";
    private long attempts;
    private long sanityAborts;

    /** @param warehouses W, at least 1 */
    public TpccSimWorkload(int warehouses) {
        this.bench = new TpccBenchmark(new TpccConfig(warehouses, 100, 30, 10, TpccMix.STANDARD, 1L));
    }

    @Override
    public Database database() {
        return bench.database();
    }

    @Override
    public void load(Cluster cluster) {
        bench.loader(LOAD_TIME_MILLIS).load(cluster::load, TpccLoader.Progress.NONE);
    }

    @Override
    public CompletableFuture<Boolean> attempt(TxnClient client, Random rnd, long priority) {
        TpccClient gen = generators.computeIfAbsent(client, c -> new TpccClient(bench.config(), bench.constants(),
                generators.size(), rnd.nextLong(), () -> LOAD_TIME_MILLIS + attempts));
        attempts++;
        return Attempts.outcome(SimDriver.attempt(client, gen.next().asTxnRequest(), priority)
                .exceptionally(e -> {
                    Throwable c = SimDriver.unwrap(e);
                    if (sawUnfinishedWriter(c)) {
                        sanityAborts++;
                        throw new TxnAbortedException(-1, "saw a new order mid-way (retried): " + c.getMessage(), true);
                    }
                    throw e instanceof CompletionException x ? x : new CompletionException(e);
                }));
    }

    /**
     * The TPC-C bodies' own evidence of a state no serializable execution shows: a delivery's user abort on a new
     * order without its order or lines, a stock_level or order_status body failing on a missing order or line.
     */
    private static boolean sawUnfinishedWriter(Throwable c) {
        String m = String.valueOf(c.getMessage());
        if (c instanceof TxnAbortedException a && !a.retryable()) {
            return m.contains(ORDER_LINE_MISSING) || m.contains("new_order row without its order");
        }
        return c instanceof IllegalStateException && (m.startsWith("stock_level:") || m.startsWith("order_status:"))
                && (m.contains("missing") || m.contains("o_ol_cnt"));
    }

    /** Attempts that failed on seeing a new order mid-way (then retried). */
    public long sanityAborts() {
        return sanityAborts;
    }

    /** @throws AssertionError naming the violated TPC-C conditions */
    @Override
    public void checkFinal(Cluster cluster) {
        ClusterTables tables = new ClusterTables(bench.schema().catalog(), cluster);
        ConsistencyReport r = bench.consistency().check(tables::get, tables);
        if (!r.ok()) {
            throw new AssertionError("TPC-C consistency: " + r.summary(3));
        }
    }
}
