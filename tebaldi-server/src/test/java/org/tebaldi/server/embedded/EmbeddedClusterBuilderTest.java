package org.tebaldi.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.server.cluster.EmbeddedCluster;
import org.tebaldi.core.testkit.TestMechanism;

/** The public embedded-cluster builder: its docstring example, bad trees, and a mechanism of the caller's own. */
class EmbeddedClusterBuilderTest {
    private final Catalog catalog = new Catalog();
    private final TableSchema account = catalog.add("account", 1, 0, false, Catalog.longCol("balance"));
    private final Database db = new Database(catalog);

    EmbeddedClusterBuilderTest() {
        db.interactive("transfer", false, List.of("account"));
        db.interactive("audit", true, List.of("account"));
    }

    /** Moves 1 from account {@code from} to {@code from + 1} (mod 8), retrying contention aborts. */
    private CompletableFuture<Void> transfer(TxnClient c, long from) {
        long to = (from + 1) % 8;
        return c.begin("transfer", Inputs.NONE, System.nanoTime() / 1000).thenCompose((Transaction t) ->
                t.readForUpdate("account", from).thenCompose(r -> t.write(account.row(r.getLong("balance") - 1), from))
                        .thenCompose(x -> t.readForUpdate("account", to))
                        .thenCompose(r -> t.write(account.row(r.getLong("balance") + 1), to))
                        .thenCompose(x -> t.commit())).handle((ci, e) -> {
                            Throwable c2 = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                            if (c2 instanceof TxnAbortedException a && a.retryable()) {
                                return transfer(c, from);
                            }
                            if (c2 != null) {
                                throw new CompletionException(c2);
                            }
                            return CompletableFuture.<Void>completedFuture(null);
                        }).thenCompose(f -> f);
    }

    @Test
    void theDocumentedExampleRunsAndItsHistoryIsSerializable() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder(db)
                .tree("{root: {cc: ssi, children: [{cc: 2pl, txns: [transfer]}, {cc: none, txns: [audit]}]}}")
                .coordinators(2).dataServers(2).networkDelayMicros(50).threads(2)
                .build()) {
            for (long k = 0; k < 8; k++) {
                cluster.load(Key.of(account, k), account.row(100L));
            }
            cluster.start();
            List<CompletableFuture<Void>> runs = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                runs.add(transfer(cluster.client(i), i % 8));
            }
            CompletableFuture.allOf(runs.toArray(new CompletableFuture[0])).join();
            Transaction audit = cluster.client(1).begin("audit", Inputs.NONE, 0).join();
            long total = 0;
            for (Row r : audit.readAll(java.util.stream.LongStream.range(0, 8)
                    .mapToObj(k -> Key.of(account, k)).toList()).join()) {
                total += r.getLong("balance");
            }
            audit.commit().join();
            assertEquals(800, total);
            assertTrue(cluster.awaitQuiet(5_000), "no transaction left running");
            CheckResult verdict = cluster.checkSerializable();
            assertTrue(verdict.serializable(), verdict::summary);
            assertTrue(verdict.committed() >= 41, verdict::summary);
            assertTrue(cluster.failures().isEmpty(), () -> cluster.failures().toString());
            assertTrue(cluster.tree().warnings().isEmpty(), () -> cluster.tree().warnings().toString());
        }
    }

    @Test
    void aBadTreeGetsOneClearMessageAndBuildsNothing() {
        ConfigException missing = assertThrows(ConfigException.class, () -> EmbeddedCluster.builder(db)
                .tree("{root: {cc: 2pl, txns: [transfer]}}").build());
        assertTrue(missing.getMessage().contains("audit"), missing.getMessage());
        ConfigException forbidden = assertThrows(ConfigException.class, () -> EmbeddedCluster.builder(db)
                .tree("{root: {cc: none, children: [{cc: 2pl, txns: [transfer]}, {cc: none, txns: [audit]}]}}").build());
        assertTrue(forbidden.getMessage().contains("none"), forbidden.getMessage());
        assertThrows(IllegalStateException.class, () -> EmbeddedCluster.builder(db).build());
    }

    @Test
    void aMechanismOfTheCallersOwnCanBeUsedInTheTree() throws Exception {
        Mechanism mine = new TestMechanism("mine") { // regulates nothing, like the test-only 'unsafe'
        };
        ConfigException unknown = assertThrows(ConfigException.class, () -> EmbeddedCluster.builder(db)
                .tree("{root: {cc: mine, txns: [transfer, audit]}}").build());
        assertTrue(unknown.getMessage().contains("mine"), unknown.getMessage());
        try (EmbeddedCluster cluster = EmbeddedCluster.builder(db).mechanism(mine)
                .tree("{root: {cc: mine, txns: [transfer, audit]}}").threads(1).build()) {
            cluster.load(Key.of(account, 0), account.row(5L));
            cluster.start();
            Transaction t = cluster.client(0).begin("audit", Inputs.NONE, 0).join();
            assertEquals(5L, t.read("account", 0).join().getLong("balance"));
            t.commit().join();
            assertTrue(cluster.awaitQuiet(5_000));
            assertFalse(cluster.checkSerializable().violationCount() > 0);
        }
    }
}
