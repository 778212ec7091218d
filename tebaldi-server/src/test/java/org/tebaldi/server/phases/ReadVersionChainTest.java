package org.tebaldi.server.phases;

import org.tebaldi.core.testkit.TestMechanism;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;

/**
 * The read-version chain of Fig 4.5 (dissertation §4.3.1): T1 is in one group, T2 and T3 in another whose CC
 * (here "view", which only sees its own group's writes) proposes T2's x2 for T3's read; the parent, which ordered
 * T1 after T2, corrects the proposal to x1 — without the child ever learning of x1.
 */
class ReadVersionChainTest {
    /** Proposes the newest version written by a transaction of its own group at this node. */
    static final class PartialView extends TestMechanism {
        final List<Long> proposedWriters = new ArrayList<>();

        PartialView() {
            super("view");
        }

        @Override
        public DsPart<Void> dsPart(CcNode node, DsServices services) {
            return new DsPart<>() {
                @Override
                public Version chooseRead(DsTxn t, Void st, OpContext op, Version proposal) {
                    if (proposal != null) {
                        return proposal;
                    }
                    Version v = op.chain().latestMatching(x -> node.contains(x.writerLeaf()));
                    proposedWriters.add(v == null ? -1 : v.writer());
                    return v;
                }
            };
        }
    }

    @Test
    void parentCorrectsTheChildsProposal() {
        Catalog cat = new Catalog();
        TableSchema t = cat.add("t", 1, 0, false, Catalog.longCol("v"));
        Database db = new Database(cat);
        db.interactive("T1", false);
        db.interactive("T2", false);
        db.interactive("T3", false);
        CcTree tree = CcTree.build(TreeSpec.inner("2pl", TreeSpec.leaf("2pl", "T1"),
                TreeSpec.leaf("view", "T2", "T3")), "fig4.5");
        PartialView view = new PartialView();
        SimulatedRuntime sim = new SimulatedRuntime(1, SimulatedRuntime.Model.jittery());
        ClusterConfig cfg = new ClusterConfig(db, tree, 1, 1, null, true)
                .withMechanisms(n -> n.equals("view") ? view : Mechanisms.get(n));
        Cluster cluster = new Cluster(sim, cfg, 16);
        cluster.load(Key.of(t, 1), t.row(0L));
        cluster.start();
        TxnClient c = cluster.client(0);
        long[] t2 = new long[1];
        List<Long> read = new ArrayList<>();
        sim.at(0, () -> write(c, "T2", t.row(2L))
                .thenCompose(id -> {
                    t2[0] = id;
                    return write(c, "T1", t.row(1L));
                })
                .thenCompose(id -> c.begin("T3", Inputs.NONE, 0))
                .thenCompose(tx -> tx.read("t", 1).thenCompose(r -> {
                    read.add(r.getLong("v"));
                    return tx.commit();
                }))
                .thenCompose(x -> c.begin("T1", Inputs.NONE, 0))
                .thenCompose(tx -> tx.write(t.row(4L), 1).thenCompose(x -> tx.read("t", 1)).thenCompose(r -> {
                    read.add(r.getLong("v"));
                    return tx.commit();
                })));
        sim.runUntil(1_000_000);
        assertEquals(List.of(t2[0]), view.proposedWriters, "the child proposed T2's x2");
        assertEquals(List.of(1L, 4L), read, "T3 read x1 (corrected by the parent); T1 read its own write");
    }

    private static CompletableFuture<Long> write(TxnClient c, String type, Row row) {
        return c.begin(type, Inputs.NONE, 0).thenCompose((Transaction tx) ->
                tx.write(row, 1).thenCompose(x -> tx.commit()).thenApply(ci -> ci.txnId()));
    }
}
