package org.tebaldi.server.ds;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;

/**
 * A recovery round drops every transaction of a data server and rebuilds its store (dissertation §4.5.4); a
 * continuation of a dropped transaction that still runs afterwards must leave the rebuilt store alone. Found by
 * DurabilityCrashIT (G2 cycles after a data server was killed): a batch whose first operation was parked on a lock
 * ran its next operation against the rebuilt store once the old lock was released, leaving an uncommitted version
 * that hid the key's recovered version, so a later transaction read an older one (a lost update).
 */
class RecoveryDropsContinuationsTest {
    @Test
    void aParkedBatchGrantedAfterRecoveryDroppedItWritesNothingIntoTheRebuiltStore() {
        Catalog cat = new Catalog();
        TableSchema a = cat.add("a", 1, -1, false, Catalog.longCol("v"));
        Database db = new Database(cat);
        db.interactive("upd", false, List.of("a"));
        CcTree tree = CcTree.build(TreeLoader.readSpec("{root: {cc: 2pl, txns: [upd]}}", "test"), "test");
        SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(100, 100, 0, 0));
        Cluster cluster = new Cluster(sim, new ClusterConfig(db, tree, 2, 1, null, true), 64);
        for (long k = 0; k < 3; k++) {
            cluster.load(Key.of(a, k), a.row(k));
        }
        cluster.start();
        // T3 holds a[2]; T1 holds a[0] and parks on a[2]; T2's batch parks on a[0] before writing a[1].
        sim.at(0, () -> cluster.client(0).begin("upd", Inputs.NONE, 0)
                .thenCompose((Transaction t) -> t.write(a.row(20L), 2)));
        sim.at(10_000, () -> cluster.client(1).begin("upd", Inputs.NONE, 0)
                .thenCompose((Transaction t) -> t.write(a.row(10L), 0).thenCompose(x -> t.write(a.row(12L), 2))));
        CompletableFuture<?>[] batch = new CompletableFuture<?>[1];
        sim.at(20_000, () -> batch[0] = cluster.client(0).begin("upd", Inputs.NONE, 0)
                .thenCompose((Transaction t) -> t.executeAll(List.of(Op.write(Key.of(a, 0), a.row(30L)),
                        Op.write(Key.of(a, 1), a.row(31L))))));
        DataServer ds = cluster.dataServers().get(0);
        // a recovery round begins here: every transaction dropped, an empty store to rebuild
        sim.at(50_000, () -> DsRecovery.dropEverything(ds));
        // T1's lock wait times out (100 ms): its abort releases a[0] in the old lock table and grants T2's write
        sim.runUntil(400_000);
        assertNotNull(batch[0], "the batch was issued");
        VersionChain c = ds.store().find(Key.of(a, 1));
        assertTrue(c == null || c.versions().stream().allMatch(Version::committed),
                () -> "a dropped transaction wrote into the rebuilt store: " + c.versions());
    }
}
