package org.tebaldi.server.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.server.durability.DurabilityOptions;
import org.tebaldi.server.durability.MemoryLogStore;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.CommitProtocol;
import org.tebaldi.server.replica.ReplicationOptions;

/**
 * A data server's cluster features are built from the configuration, in the order their points run
 * (docs/architecture.md, "Nodes and features"): a feature that is off is not in the list.
 */
class DsFeaturesTest {
    private final Catalog cat = new Catalog();
    private final TableSchema a = cat.add("a", 1, -1, false, Catalog.longCol("v"));
    private final ClusterConfig plain;

    DsFeaturesTest() {
        Database db = new Database(cat);
        db.interactive("upd", false, List.of("a"));
        CcTree tree = CcTree.build(TreeLoader.readSpec("{root: {cc: 2pl, txns: [upd]}}", "test"), "test");
        plain = new ClusterConfig(db, tree, 1, 2, null, false);
    }

    private static List<Class<?>> kinds(DataServer ds) {
        return ds.features().list().stream().<Class<?>>map(Object::getClass).toList();
    }

    private ClusterConfig durable(MemoryLogStore[] stores) {
        return plain.withDurability(new DurabilityOptions(true, null, 2_000, true, MemoryLogStore.factory(stores)));
    }

    @Test
    void withoutDurabilityOnlyTerminationAndReconfigurationRun() {
        DataServer ds = new DataServer(0, plain, 16, Runnable::run, null);
        assertEquals(List.of(DsTermination.class, DsReconfig.class), kinds(ds));
        assertTrue(ds.replication().isEmpty());
        assertEquals(null, ds.logStore());
        assertFalse(ds.restarted());
    }

    @Test
    void everyFeatureInPointOrder() {
        MemoryLogStore[] stores = {new MemoryLogStore(), new MemoryLogStore()};
        ClusterConfig cfg = durable(stores).withCommit(CommitProtocol.EPOCH, 1_000)
                .withReplication(new ReplicationOptions(2, ReplicationOptions.Mode.SYNC, null));
        DataServer ds = new DataServer(0, cfg, 16, Runnable::run, null);
        assertEquals(List.of(DsReplication.class, DsDurability.class, DsRecovery.class, DsEpochs.class,
                DsTermination.class, DsReconfig.class), kinds(ds));
        assertTrue(ds.replication().orElseThrow().replicatedLog() != null, "a fresh primary ships its log");
        ds.closeLog();
    }

    @Test
    void aLogStoreIsOpenedOnlyWithAnExecutorForItsCallbacks() {
        MemoryLogStore[] stores = {new MemoryLogStore(), new MemoryLogStore()};
        DataServer ds = new DataServer(0, durable(stores), 16, null, null);
        assertEquals(List.of(DsTermination.class, DsReconfig.class), kinds(ds));
    }

    @Test
    void aServerRestartedFromItsStoreRecoversAndTakesNoInitialRows() throws InterruptedException {
        MemoryLogStore[] stores = {new MemoryLogStore(), new MemoryLogStore()};
        DataServer first = new DataServer(0, durable(stores), 16, Runnable::run, null);
        first.load(Key.of(a, 1L), a.row(1L));
        first.awaitLoaded();
        assertFalse(first.restarted());
        DataServer second = new DataServer(0, durable(stores), 16, Runnable::run, null);
        assertTrue(second.restarted());
        assertTrue(second.recovering(), "it serves nothing until a recovery round rebuilt it");
        assertThrows(IllegalStateException.class, () -> second.load(Key.of(a, 2L), a.row(2L)));
    }
}
