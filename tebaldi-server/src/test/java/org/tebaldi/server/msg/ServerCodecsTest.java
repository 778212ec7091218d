package org.tebaldi.server.msg;

import org.tebaldi.core.testkit.RoundTrip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tebaldi.core.model.Catalog.doubleCol;
import static org.tebaldi.core.model.Catalog.longCol;
import static org.tebaldi.core.model.Catalog.stringCol;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.codec.ByteArrayDecoder;
import org.tebaldi.core.codec.ByteArrayEncoder;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.cc.CcReport;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.codec.Encoder;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.proc.Assign;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.ExprUpdate;
import org.tebaldi.core.service.TsMessages;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;

/**
 * Every TC/DS/client message survives the wire, with the CC-specific payloads they carry (SSI and TSO metadata,
 * whose records are package-private to their mechanisms and so are built here by decoding their wire form).
 */
class ServerCodecsTest {
    private static final CodecRegistry REG = CodecRegistry.classPath();
    private static final Catalog CAT = catalog();
    private static final TableSchema KV = CAT.table("kv");

    private static Catalog catalog() {
        Catalog c = new Catalog();
        c.add("kv", 1, 0, false, longCol("v"), doubleCol("d"), stringCol("s"));
        return c;
    }

    /** An instance of another package's registered record, decoded from its namespaced id and fields. */
    private static Object foreign(String ns, String name, Consumer<Encoder> fields) {
        ByteArrayEncoder e = new ByteArrayEncoder(REG);
        e.writeByte(12);
        e.writeInt(CodecRegistry.typeId(ns, name));
        fields.accept(e);
        return new ByteArrayDecoder(REG, CodecContext.NONE, e.toByteArray()).readValue();
    }

    private static Object check(Object v) {
        return RoundTrip.check(v, CAT);
    }

    @Test
    void everyMessageRoundTripsWithCcPayloads() {
        Object ssiMeta = foreign("ssi", "Meta", e -> e.writeVarLong(41));
        Object tsoMeta = foreign("tso", "Meta", e -> e.writeVarLong(77));
        assertEquals("SsiMeta", ssiMeta.getClass().getSimpleName());
        assertEquals("Meta", tsoMeta.getClass().getSimpleName());
        Object[] meta = {ssiMeta, null, tsoMeta};
        TxnHeader h = new TxnHeader(1L << 40 | 5, 2, 3, -4, 123456);
        Row row = KV.row(7L, 2.5, "seven");
        ExprUpdate upd = ExprUpdate.of(KV, List.of(new Assign("v", new Expr.Binary(Expr.BinaryOp.SUB,
                new Expr.Col("v"), new Expr.Lit(3L)))));
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("total", 12.5);
        outputs.put("ids", new long[] {1, 2});
        TxnDep[] deps = {new TxnDep(9, 1, 2, 0, 1), new TxnDep(10, 0, 0, 3, 2)};
        CcReport edge = (CcReport) foreign("ssi", "AntiDependency", e -> {
            e.writeVarLong(41);
            e.writeVarLong(43);
        });
        LevelReport[] reports = {new LevelReport(0, edge), new LevelReport(2, edge)};
        List<Object> all = List.of(
                new ExecRequest(h, 3, Op.read(Key.of(KV, 1)), meta),
                new ExecRequest(h, 4, Op.update(Key.of(KV, 1), upd), null),
                new ExecRequest(h, 5, Op.write(Key.of(KV, 2), row), new Object[] {tsoMeta}),
                new ExecReply(h.txnId(), 3, true, row, null, true, deps, reports),
                new ExecReply(h.txnId(), 4, false, null, "2pl: lock timeout", true, null, null),
                new ExecBatch(h, new int[] {6, 8}, new Op[] {Op.read(Key.of(KV, 1)), Op.update(Key.of(KV, 1), upd)},
                        meta),
                new ExecReplies(new ExecReply[] {new ExecReply(h.txnId(), 6, true, row, null, true, deps, reports),
                        new ExecReply(h.txnId(), 8, false, null, "no", false, null, null)}),
                new ValidateRequest(h.txnId(), meta),
                new ValidateReply(h.txnId(), true, null, true, deps, reports),
                new ValidateReply(h.txnId(), false, "ssi: pivot", false, null, null),
                new CommitRequest(h.txnId(), new Object[] {88L, null, null}),
                new CommitRequest(h.txnId(), null),
                new AbortRequest(h.txnId()),
                new BeginTxn(1, 2, Inputs.of(1L, "x", new long[] {3}), 99),
                new CallProc(2, 1, Inputs.of(2.5), 100),
                new TxnOp(h.txnId(), 0, Op.delete(Key.of(KV, 3))),
                new OpDone(h.txnId(), 0, row),
                new OpDone(h.txnId(), 1, null),
                new TxnBegun(1, h.txnId()),
                new TxnEnded(2, h.txnId(), true, null, true, outputs),
                new TxnEnded(2, h.txnId(), false, "user abort", false, Map.of()),
                new CommitTxn(h.txnId()),
                new AbortTxn(h.txnId()),
                new CcEnvelope(2, foreign("ssi", "Check", e -> {
                    e.writeVarLong(1);
                    e.writeVarLong(2);
                    e.writeVarLong(3);
                    e.writeLongs(new long[] {4, 5});
                })),
                new CcEnvelope(0, new TsMessages.OpenBatch(4, 0)),
                new org.tebaldi.core.profile.BlockingBatch(new long[] {1, 2, 3, 4, 5, 6}),
                new Reconfig.Cleanup(3, 2000),
                new Reconfig.Drained(3),
                new Reconfig.CleanupDone(3, 7),
                new Reconfig.PrepareDone(3),
                new Reconfig.Apply(3),
                new Reconfig.Applied(4),
                new Reconfig.Retired(4));
        for (Object m : all) {
            check(m);
        }
    }

    @Test
    void durabilityAndRecoveryMessagesRoundTrip() {
        long t = 1L << 40 | 5;
        for (Object m : List.of(
                new ValidateRequest(t, null, 2),
                new ValidateReply(t, true, null, true, null, null, 17),
                new CommitRequest(t, new Object[] {88L}, 1L << 33),
                new TxnEnded(2, t, true, null, true, Map.of(), false),
                new Durable.Persisted(1, 99, 12),
                new Durable.Txns(0, new long[] {t, t + 1}, false, null),
                new Durable.Txns(12, new long[0], true, "lost: recovered to epoch 3"),
                new Durable.Ack(12),
                new Recovery.Request(2),
                new Recovery.Begin(1_000_001),
                new Recovery.BeginAck(1_000_001, 2),
                new Recovery.Summary(7, 1, 40, 43, -1, 3, new long[] {t, t + 1}, new byte[] {7, 1},
                        new int[] {2, 0}, new long[] {41, -1}, new long[] {42, -1}),
                new Recovery.Decide(7, 40, 44, new long[] {t}),
                new Recovery.Applied(7, 1, 270_000, 1, 1),
                new Recovery.Finish(7),
                new Recovery.Finished(7, 1),
                new Recovery.End(7, 40, 44))) {
            check(m);
        }
    }

    @Test
    void nearestReplicaReadMessagesRoundTrip() {
        org.tebaldi.core.model.Row row = org.tebaldi.core.model.Row.of(KV, 7L, 1.5, "x");
        var w1 = new org.tebaldi.server.replica.ReplicaMessages.ViewWrite(Key.of(KV, 1), Long.MIN_VALUE, 0, 1, 0, row);
        var w2 = new org.tebaldi.server.replica.ReplicaMessages.ViewWrite(Key.of(KV, 2), 1L << 50, 1L << 40 | 3, 2, 9,
                null);
        for (Object m : List.of(
                new org.tebaldi.server.replica.ReplicaMessages.View(2, 17, List.of(w1, w2), -5, 123_456),
                new org.tebaldi.server.replica.ReplicaMessages.View(0, 1, List.of(), Long.MIN_VALUE, -1),
                new org.tebaldi.server.replica.ReplicaMessages.Read(99, 1, Key.of(KV, 4), 1L << 45),
                new org.tebaldi.server.replica.ReplicaMessages.ReadReply(99, true, row, 1L << 40 | 3, 2, 9),
                new org.tebaldi.server.replica.ReplicaMessages.ReadReply(100, false, null, 0, 1, 0))) {
            check(m);
        }
    }

    @Test
    void reconfigurationCarriesTheTree() {
        org.tebaldi.core.tree.CcTree tree = org.tebaldi.core.tree.CcTree.build(
                org.tebaldi.core.tree.TreeSpec.inner("ssi", org.tebaldi.core.tree.TreeSpec.leaf("none", "ro"),
                        org.tebaldi.core.tree.TreeSpec.inner("2pl", org.tebaldi.core.tree.TreeSpec.leaf("rp", "a", "b")
                                .option("lockTimeout", "20ms"), org.tebaldi.core.tree.TreeSpec.leaf("tso", "c")
                                .instanceBy("flight"))), "candidate-3");
        ByteArrayEncoder e = new ByteArrayEncoder(REG);
        e.writeValue(new Reconfig.Prepare(9, tree));
        Reconfig.Prepare p = (Reconfig.Prepare) new ByteArrayDecoder(REG, CodecContext.NONE, e.toByteArray()).readValue();
        assertEquals(9, p.epoch());
        assertEquals(tree.describe(), p.tree().describe());
        assertEquals(tree.node(3).options(), p.tree().node(3).options());
        assertEquals("candidate-3", p.tree().source());
    }

    @Test
    void onlineUpdateCarriesNodeIdsAndStates() {
        org.tebaldi.core.tree.TreeSpec old = org.tebaldi.core.tree.TreeSpec.leaf("2pl", "a", "b");
        old.id = 1;
        old.state = org.tebaldi.core.tree.NodeState.DRAINING;
        org.tebaldi.core.tree.TreeSpec root = org.tebaldi.core.tree.TreeSpec.inner("2pl", old,
                org.tebaldi.core.tree.TreeSpec.leaf("none", "ro"), org.tebaldi.core.tree.TreeSpec.leaf("rp", "a", "b"));
        root.id = 0;
        root.children.get(1).id = 2;
        org.tebaldi.core.tree.CcTree merged = org.tebaldi.core.tree.CcTree.build(root.placeAt("root"), "merged");
        assertEquals(3, merged.leafFor("a").id(), "the new leaf got a fresh id");
        for (Object m : List.of(new Reconfig.UpdatePrepare(5, merged), new Reconfig.UpdateApply(5, merged),
                new Reconfig.Retire(5, merged, 1))) {
            ByteArrayEncoder e = new ByteArrayEncoder(REG);
            e.writeValue(m);
            Object back = new ByteArrayDecoder(REG, CodecContext.NONE, e.toByteArray()).readValue();
            org.tebaldi.core.tree.CcTree t = back instanceof Reconfig.UpdatePrepare u ? u.tree()
                    : back instanceof Reconfig.UpdateApply a ? a.tree() : ((Reconfig.Retire) back).tree();
            assertEquals(merged.describe(), t.describe());
            for (org.tebaldi.core.tree.CcNode n : merged.nodes()) {
                assertEquals(n.state(), t.node(n.id()).state(), "state of node " + n.id());
                assertEquals(n.mechanism(), t.node(n.id()).mechanism(), "node " + n.id());
            }
            assertEquals(3, t.leafFor("b").id());
        }
    }
}
