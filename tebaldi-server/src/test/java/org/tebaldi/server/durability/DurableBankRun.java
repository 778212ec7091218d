package org.tebaldi.server.durability;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * Bank transfers and audits on a simulated cluster with durability on in-memory stores (one run = one cluster
 * lifetime; a crash ends it and a new run over the same stores recovers). Records, per committed transaction,
 * whether its durable notification arrived (or it was reported lost).
 */
final class DurableBankRun {
    static final long INITIAL = 100;

    final Database db;
    final TableSchema account;
    final int accounts;
    final SimulatedRuntime sim;
    final Cluster cluster;
    final Set<Long> committed = new HashSet<>();
    final Set<Long> durable = new HashSet<>();
    final Set<Long> lost = new HashSet<>();
    private Throwable failure;

    DurableBankRun(long seed, CcTree tree, int accounts, MemoryLogStore[] stores, long epochMicros, boolean sync) {
        this(seed, tree, accounts, stores, epochMicros, sync, c -> c);
    }

    /** With the cluster configuration adjusted by {@code configure} (e.g. epoch-based commit). */
    DurableBankRun(long seed, CcTree tree, int accounts, MemoryLogStore[] stores, long epochMicros, boolean sync,
                   java.util.function.UnaryOperator<ClusterConfig> configure) {
        this.accounts = accounts;
        Catalog c = new Catalog();
        account = c.add("account", 1, 0, false, Catalog.longCol("balance"));
        db = new Database(c);
        db.interactive("transfer", false, List.of("account"), "from", "to", "amount");
        db.interactive("audit", true, List.of("account"));
        sim = new SimulatedRuntime(seed, SimulatedRuntime.Model.jittery());
        ClusterConfig cfg = configure.apply(new ClusterConfig(db, tree, 2, stores.length, null, true)
                .withGcEpoch(1_000)
                .withDurability(new DurabilityOptions(true, null, epochMicros, sync, MemoryLogStore.factory(stores))));
        cluster = new Cluster(sim, cfg, 64);
    }

    /** The first run's ids stay below the second run's. */
    DurableBankRun firstRun() {
        firstRun = true;
        return this;
    }

    private boolean firstRun;

    /** Loads the accounts unless the stores hold data (then the cluster recovers), and starts. */
    DurableBankRun start() {
        if (!firstRun && cluster.restarted()) {
            cluster.coordinators().forEach(tc -> tc.startIdsAbove(1_000_000));
        }
        if (!cluster.restarted()) {
            for (int i = 0; i < accounts; i++) {
                cluster.load(Key.of(account, i), account.row(INITIAL));
            }
        }
        cluster.start();
        return this;
    }

    /** Runs until no node recovers any more (at most {@code limitMicros} of virtual time). */
    boolean awaitRecovered(long limitMicros) {
        return sim.runUntil(() -> cluster.dataServers().stream().noneMatch(DataServer::recovering)
                && cluster.coordinators().stream().noneMatch(TransactionCoordinator::recovering),
                sim.nowMicros() + limitMicros);
    }

    /** Starts {@code clients} closed-loop clients issuing transactions until {@code untilMicros} (virtual). */
    void clients(int clients, long untilMicros, Random rnd) {
        for (int i = 0; i < clients; i++) {
            TxnClient cl = cluster.client(i);
            Random r = new Random(rnd.nextLong());
            sim.at(sim.nowMicros() + r.nextInt(200), () -> loop(cl, r, untilMicros));
        }
    }

    private void loop(TxnClient cl, Random r, long until) {
        if (sim.nowMicros() >= until || failure != null) {
            return;
        }
        attempt(cl, r).whenComplete((ok, e) -> sim.at(sim.nowMicros() + 50 + r.nextInt(500),
                () -> loop(cl, r, until)));
    }

    private CompletableFuture<Boolean> attempt(TxnClient cl, Random r) {
        CompletableFuture<CommitInfo> f;
        if (r.nextInt(10) < 3) {
            f = cl.begin("audit", Inputs.NONE, sim.nowMicros()).thenCompose(t -> sum(t, 0, 0).thenCompose(total ->
                    t.commit().thenApply(ci -> {
                        if (total != INITIAL * accounts) {
                            failure = new AssertionError("audit " + ci.txnId() + " saw " + total);
                        }
                        return ci;
                    })));
        } else {
            long a = r.nextInt(accounts);
            long b = (a + 1 + r.nextInt(accounts - 1)) % accounts;
            long amount = 1 + r.nextInt(20);
            f = cl.begin("transfer", Inputs.of(a, b, amount), sim.nowMicros()).thenCompose(t ->
                    t.read("account", a).thenCompose(ra -> t.read("account", b).thenCompose(rb ->
                            t.write(account.row(ra.getLong("balance") - amount), a).thenCompose(x ->
                                    t.write(account.row(rb.getLong("balance") + amount), b)).thenCompose(x ->
                                    t.commit()))));
        }
        return f.handle((ci, e) -> {
            if (e != null) {
                return false;
            }
            committed.add(ci.txnId());
            ci.durable().whenComplete((v, x) -> (x == null ? durable : lost).add(ci.txnId()));
            return true;
        });
    }

    private CompletableFuture<Long> sum(Transaction t, int i, long acc) {
        if (i == accounts) {
            return CompletableFuture.completedFuture(acc);
        }
        return t.read("account", i).thenCompose(row -> sum(t, i + 1, acc + row.getLong("balance")));
    }

    /** A workload assertion that failed, or null. */
    Throwable failure() {
        return failure;
    }

    /** The sum of the latest committed balances. */
    long total() {
        long total = 0;
        for (DataServer d : cluster.dataServers()) {
            for (int i = 0; i < accounts; i++) {
                VersionChain ch = d.store().find(Key.of(account, i));
                Version v = ch == null ? null : ch.latestCommitted();
                if (v != null) {
                    total += v.value().getLong("balance");
                }
            }
        }
        return total;
    }

    /** Every data server's and coordinator's history. */
    List<HistoryLog> histories() {
        return new ArrayList<>(cluster.historyLogs());
    }

    /** The commits recovery rounds retracted, gathered from every coordinator. */
    Set<Long> retracted() {
        Set<Long> r = new HashSet<>();
        cluster.coordinators().forEach(tc -> r.addAll(tc.retractedCommits()));
        return r;
    }

    /**
     * After a take-over: some commits became durable, and every one of them is committed in a data server's
     * (recovered) history and not among {@code retracted}.
     *
     * @throws AssertionError naming the first acknowledged transaction lost
     */
    void assertAcknowledgedKept(Set<Long> retracted) {
        Set<Long> present = new HashSet<>();
        for (DataServer d : cluster.dataServers()) {
            d.history().outcomes().forEach(o -> {
                if (o.committed()) {
                    present.add(o.txn());
                }
            });
        }
        org.junit.jupiter.api.Assertions.assertTrue(!durable.isEmpty(), "some commits became durable");
        for (long t : durable) {
            org.junit.jupiter.api.Assertions.assertTrue(present.contains(t) && !retracted.contains(t),
                    "acknowledged transaction " + t + " is lost after the take-over");
        }
    }

    /** The merged history is serializable. @throws AssertionError with the checker's summary and 4 violations */
    void assertSerializable() {
        org.tebaldi.core.history.CheckResult c = org.tebaldi.core.history.SerializabilityChecker.check(
                org.tebaldi.core.history.History.merge(histories()));
        org.junit.jupiter.api.Assertions.assertTrue(c.serializable(), c.summary() + "\n"
                + c.violations().stream().limit(4).map(Object::toString).toList());
    }

    /** Seeds 1..n, or only {@code -Dtebaldi.seed=N} when given (to reproduce one). */
    static List<Long> seeds(int n) {
        String one = System.getProperty("tebaldi.seed");
        if (one != null) {
            return List.of(Long.parseLong(one));
        }
        List<Long> s = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            s.add(i);
        }
        return s;
    }
}
