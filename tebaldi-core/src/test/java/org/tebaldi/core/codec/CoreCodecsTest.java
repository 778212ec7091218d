package org.tebaldi.core.codec;

import org.tebaldi.core.testkit.RoundTrip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.model.Catalog.doubleCol;
import static org.tebaldi.core.model.Catalog.longCol;
import static org.tebaldi.core.model.Catalog.stringCol;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.ColumnType;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.proc.Assign;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.ExprUpdate;
import org.tebaldi.core.service.TsMessages;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;

/** Round trips of every core codec and built-in value type, and the errors of bad input. */
class CoreCodecsTest {
    static final Catalog CAT = catalog();
    static final CodecRegistry REG = CodecRegistry.classPath();

    private static Catalog catalog() {
        Catalog c = new Catalog();
        c.add("kv", 2, 0, false, longCol("v"), doubleCol("d"), stringCol("s"), new Column("b", ColumnType.BYTES));
        return c;
    }

    static Object roundTrip(Object v) {
        return RoundTrip.bytesOnly(v, CAT);
    }

    private static void same(Object v) {
        Object back = roundTrip(v);
        assertTrue(RoundTrip.equal(v, back), () -> "round trip changed " + v + " into " + back);
    }

    @Test
    void builtInValues() {
        for (Object v : new Object[] {null, 0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 7, -7, 3.25, Double.NaN, "",
                "grüße", new byte[] {1, 2, -3}, true, false, new long[] {0, -5, 1L << 60}, new long[0],
                new Object[] {1L, null, "x", new long[] {2}}, List.of(1L, "a"), Map.of("k", 2.5)}) {
            same(v);
        }
    }

    @Test
    void modelTypes() {
        TableSchema kv = CAT.table("kv");
        same(Key.of(0, 3, -4));
        Row row = kv.row(5L, 1.5, "s", new byte[] {9});
        same(row);
        same(kv.row(null, null, null, null));
        same(Op.read(Key.of(kv, 1, 2)));
        same(Op.readForUpdate(Key.of(kv, 1, 2)));
        same(Op.delete(Key.of(kv, 1, 2)));
        same(Op.write(Key.of(kv, 1, 2), row));
        same(Inputs.of(1L, 2.0, "three", new long[] {4, 5}));
        same(Inputs.NONE);
        same(new TxnDep(1L << 41 | 7, 3, 2, -9, 1));
    }

    @Test
    void storedProcedureUpdateTravels() {
        TableSchema kv = CAT.table("kv");
        ExprUpdate u = ExprUpdate.of(kv, List.of(
                new Assign("v", new Expr.Binary(Expr.BinaryOp.ADD, new Expr.Col("v"), new Expr.Lit(5L))),
                new Assign("s", new Expr.Cond(new Expr.Binary(Expr.BinaryOp.GT, new Expr.Col("v"), new Expr.Lit(0L)),
                        new Expr.Concat(List.of(new Expr.Col("s"), new Expr.Lit("+"))),
                        new Expr.Unary(Expr.UnaryOp.NOT, new Expr.Lit(true)))),
                new Assign("d", new Expr.Unary(Expr.UnaryOp.TO_DOUBLE, new Expr.Elem(new Expr.Lit(new long[] {7, 8}),
                        new Expr.Lit(1L))))));
        Op op = Op.update(Key.of(kv, 1, 1), u);
        Op back = (Op) roundTrip(op);
        assertEquals(u, back.update());
        Row old = kv.row(1L, 0.0, "a", null);
        assertEquals(u.apply(old), back.update().apply(old), "the decoded update computes the same row");
        Op upsert = Op.upsert(Key.of(kv, 1, 1), old, u);
        Op upBack = (Op) roundTrip(upsert);
        assertEquals(org.tebaldi.core.txn.OpKind.UPSERT, upBack.kind());
        assertEquals(old, upBack.value());
        assertEquals(u, upBack.update());
    }

    @Test
    void listAppendsTravel() {
        Catalog c = new Catalog();
        TableSchema la = c.add("la", 1, -1, false, stringCol(org.tebaldi.core.history.listappend.ListAppendTxns.COLUMN));
        var u = new org.tebaldi.core.history.listappend.AppendUpdate(la, 42);
        Object back = RoundTrip.bytesOnly(Op.update(Key.of(la, 3), u), c);
        assertEquals(u, ((Op) back).update());
        assertEquals(la.row("7,42"), ((Op) back).update().apply(la.row("7")), "appends to the list");
        assertEquals(la.row("42"), u.apply(la.row("")), "the first element");
    }

    @Test
    void envelopesAndTimestampMessages() {
        same(new CcEnvelope(-1, new TsMessages.GetWatermark(3, -1)));
        same(new CcEnvelope(2, new long[] {1, 2}));
        same(new TsMessages.Next(1));
        same(new TsMessages.OpenBatch(2, 3));
        same(new TsMessages.FinishBatch(3, 99));
        same(new TsMessages.AwaitBelow(4, 5, 6));
        same(new TsMessages.Issued(7, 8));
        same(new TsMessages.BelowDone(9));
        same(new TsMessages.Watermark(10, 11));
        same(new TsMessages.Forget(12));
        same(new TsMessages.Sync(13, 2, new long[] {5, 1L << 41}, new long[0]));
        same(new TsMessages.Sync(14, 0, new long[0], new long[] {3, 4}));
        same(new TsMessages.Synced(15));
    }

    @Test
    void lambdaUpdatesCannotCrossTheNetwork() {
        Op op = Op.update(Key.of(CAT.table("kv"), 1, 1), r -> r);
        CodecException e = assertThrows(CodecException.class, () -> new ByteArrayEncoder(REG).writeValue(op));
        assertTrue(e.getMessage().contains("lambda RowUpdate works only in embedded mode"), e.getMessage());
    }

    @Test
    void corruptInputIsRejectedWithAMessage() {
        ByteArrayEncoder e = new ByteArrayEncoder(REG);
        e.writeValue(Op.write(Key.of(0, 1, 2), CAT.table("kv").row(1L, 2.0, "x", null)));
        byte[] full = e.toByteArray();
        for (int cut = 0; cut < full.length; cut++) {
            byte[] part = java.util.Arrays.copyOf(full, cut);
            assertThrows(CodecException.class, () -> new ByteArrayDecoder(REG, new CodecContext(CAT), part).readValue(),
                    "cut at " + cut);
        }
        byte[] unknown = {(byte) CodecRegistry.TAG_REGISTERED, 0, 0, 0, 1};
        CodecException x = assertThrows(CodecException.class,
                () -> new ByteArrayDecoder(REG, CodecContext.NONE, unknown).readValue());
        assertTrue(x.getMessage().contains("unknown type id"), x.getMessage());
    }

    @Test
    void rowsNeedACatalog() {
        ByteArrayEncoder e = new ByteArrayEncoder(REG);
        e.writeValue(CAT.table("kv").row(1L, 2.0, "x", null));
        CodecException x = assertThrows(CodecException.class,
                () -> new ByteArrayDecoder(REG, CodecContext.NONE, e.toByteArray()).readValue());
        assertTrue(x.getMessage().contains("knows no catalog"));
    }

    @Test
    void providersAreNamespacedAndCollisionsFail() {
        CodecProvider a = new CodecProvider() {
            @Override
            public String namespace() {
                return "a";
            }

            @Override
            public void register(CodecRegistrar r) {
                r.add("X", String.class, Codec.of((s, o) -> o.writeString(s), Decoder::readString));
            }
        };
        CodecProvider b = new CodecProvider() {
            @Override
            public String namespace() {
                return "b";
            }

            @Override
            public void register(CodecRegistrar r) {
                r.add("X", StringBuilder.class, Codec.of((s, o) -> o.writeString(s.toString()),
                        i -> new StringBuilder(i.readString())));
            }
        };
        CodecRegistry both = CodecRegistry.of(List.of(a, b));
        assertEquals(2, both.names().size(), "the same local name in two namespaces gets two ids");
        assertTrue(both.names().containsValue("a:X") && both.names().containsValue("b:X"));
        IllegalStateException dup = assertThrows(IllegalStateException.class, () -> CodecRegistry.of(List.of(a, a)));
        assertTrue(dup.getMessage().contains("namespace 'a'"));
        assertTrue(REG.names().containsValue("core:Key"));
        assertTrue(REG.fingerprint() != CodecRegistry.of(List.of(a)).fingerprint());
    }
}
