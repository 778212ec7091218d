package org.tebaldi.core.proc;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.*;
import static org.tebaldi.core.proc.Tpcc.k;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.OpKind;

/** Runs procedures against {@link TestStore}: data operations, control flow, arrays, outputs, aborts. */
class ProcedureExecutionTest {
    private final Catalog cat = Tpcc.catalog();
    private final TestStore store = new TestStore(cat);
    private final int kv = cat.table("kv").id();

    @Test
    void readWriteUpdateDeleteIssueTheRightOperationsAndValues() {
        store.put("kv", k(1), 5L, 1.5, "one", null);
        store.put("kv", k(3), 9L, null, null, null);
        Procedure p = Procedure.define("rw", cat).params("a", "b").body(b -> {
            b.read("kv", "r", in("a"));
            b.write("kv", row("v", add(field("r", "v"), lit(1L)), "s", lit("two")), in("b"));
            b.update("kv", "u", List.of(set("v", mul(col("v"), lit(10L)))), in("a"));
            b.delete("kv", lit(3L));
            b.output("r_v", field("r", "v"));
            b.output("u_v", field("u", "v"));
        }).build();

        Map<String, Object> out = store.outputs(p, 1L, 2L);

        assertEquals(List.of(OpKind.READ, OpKind.WRITE, OpKind.UPDATE, OpKind.DELETE),
                store.ops.stream().map(o -> o.kind()).toList());
        assertEquals(List.of(Key.of(kv, 1), Key.of(kv, 2), Key.of(kv, 1), Key.of(kv, 3)),
                store.ops.stream().map(o -> o.key()).toList());
        assertEquals(cat.table("kv").row(6L, null, "two", null), store.get("kv", 2));
        assertEquals(cat.table("kv").row(50L, 1.5, "one", null), store.get("kv", 1));
        assertNull(store.get("kv", 3));
        assertEquals(Map.of("r_v", 5L, "u_v", 50L), out);
    }

    @Test
    void readOfAbsentRowYieldsNullAndReadForUpdateIssuesExclusiveRead() {
        Procedure p = Procedure.define("absent", cat).body(b -> {
            b.readForUpdate("kv", "r", lit(42L));
            b.output("missing", isNull(local("r")));
        }).build();
        assertEquals(Map.of("missing", true), store.outputs(p));
        assertEquals(OpKind.READ_FOR_UPDATE, store.ops.get(0).kind());
    }

    @Test
    void ifThenElseTakesEachBranch() {
        Procedure p = Procedure.define("branch", cat).params("x").body(b -> {
            b.ifThenElse(gt(in("x"), lit(10L)),
                    t -> t.write("kv", row("s", lit("big")), lit(1L)).let("y", lit("then")),
                    e -> e.write("kv", row("s", lit("small")), lit(2L)).let("y", lit("else")));
            b.output("y", local("y"));
        }).build();

        assertEquals(Map.of("y", "then"), store.outputs(p, 11L));
        assertEquals("big", store.get("kv", 1).get("s"));
        assertNull(store.get("kv", 2));

        assertEquals(Map.of("y", "else"), store.outputs(p, 10L));
        assertEquals("small", store.get("kv", 2).get("s"));
        assertEquals(2, store.ops.size());
    }

    @Test
    void ifThenWithoutElseSkipsItsBody() {
        Procedure p = Procedure.define("skip", cat).params("x").body(b -> {
            b.let("y", lit(0L));
            b.ifThen(eq(in("x"), lit(1L)), t -> t.let("y", lit(1L)).delete("kv", lit(7L)));
            b.output("y", local("y"));
        }).build();
        assertEquals(Map.of("y", 0L), store.outputs(p, 0L));
        assertTrue(store.ops.isEmpty());
        assertEquals(Map.of("y", 1L), store.outputs(p, 1L));
        assertEquals(1, store.ops.size());
    }

    @Test
    void forRangeRunsBodyOncePerIndexWithTheRightKeys() {
        Procedure p = Procedure.define("loop", cat).params("ids").body(b -> {
            b.let("sum", lit(0L));
            b.forRange("i", lit(0L), len(in("ids")), 15, body -> {
                body.write("kv", row("v", mul(local("i"), lit(100L))), elem(in("ids"), local("i")));
                body.let("sum", add(local("sum"), elem(in("ids"), local("i"))));
            });
            b.output("sum", local("sum"));
        }).build();

        assertEquals(Map.of("sum", 60L), store.outputs(p, (Object) new long[] {10, 20, 30}));
        assertEquals(List.of(Key.of(kv, 10), Key.of(kv, 20), Key.of(kv, 30)),
                store.ops.stream().map(o -> o.key()).toList());
        assertEquals(200L, store.get("kv", 30).get("v"));
    }

    @Test
    void forRangeWithEmptyRangeRunsNoIteration() {
        Procedure p = Procedure.define("empty", cat).params("from", "to").body(b -> {
            b.let("n", lit(0L));
            b.forRange("i", in("from"), in("to"), 3, body -> body.let("n", add(local("n"), lit(1L))));
            b.output("n", local("n"));
        }).build();
        assertEquals(Map.of("n", 0L), store.outputs(p, 5L, 5L));
        assertEquals(Map.of("n", 0L), store.outputs(p, 5L, -100L));
        assertEquals(Map.of("n", 3L), store.outputs(p, -1L, 2L));
    }

    @Test
    void forRangeBeyondMaxIterationsFailsBeforeTheFirstIteration() {
        Procedure p = Procedure.define("bounded", cat).params("ids").body(b -> {
            b.let("x", lit(1L));
            b.forRange("i", lit(0L), len(in("ids")), 15,
                    body -> body.read("kv", "r", elem(in("ids"), local("i"))));
        }).build();
        ProcedureException e = assertThrows(ProcedureException.class, () -> store.drive(p, (Object) new long[16]));
        assertEquals("bounded: statement 2 (for i): range 0..16 is 16 iterations, more than maxIterations 15",
                e.getMessage());
        assertTrue(store.ops.isEmpty());
        assertInstanceOf(ProcStep.Done.class, store.drive(p, (Object) new long[15]));
        assertEquals(15, store.ops.size());
    }

    @Test
    void nestedLoopsAndLoopVariableVisibleInBody() {
        Procedure p = Procedure.define("nested", cat).body(b -> {
            b.let("acc", lit(""));
            b.forRange("i", lit(0L), lit(2L), 2, o -> o.forRange("j", lit(0L), lit(3L), 3,
                    inner -> inner.let("acc", concat(local("acc"), local("i"), local("j"), lit(";")))));
            b.output("acc", local("acc"));
        }).build();
        assertEquals(Map.of("acc", "00;01;02;10;11;12;"), store.outputs(p));
    }

    @Test
    void localArraysSetElemElemLenAndValueSemantics() {
        Procedure p = Procedure.define("arrays", cat).params("n").body(b -> {
            b.newArray("a", in("n"));
            b.forRange("i", lit(0L), len(local("a")), 10, body -> body.setElem("a", local("i"), mul(local("i"), local("i"))));
            b.let("copy", local("a"));
            b.setElem("a", lit(0L), lit("changed"));
            b.output("a", local("a"));
            b.output("copy0", elem(local("copy"), lit(0L)));
            b.output("len", len(local("copy")));
            b.output("unset", isNull(elem(local("a"), lit(1L))));
        }).build();
        Map<String, Object> out = store.outputs(p, 3L);
        assertArrayEquals(new Object[] {"changed", 1L, 4L}, (Object[]) out.get("a"));
        assertEquals(0L, out.get("copy0"));
        assertEquals(3L, out.get("len"));
        assertEquals(false, out.get("unset"));
    }

    @Test
    void outputsKeepFirstSetOrderAllowNullAndLaterValueWins() {
        Procedure p = Procedure.define("outs", cat).body(b -> {
            b.output("first", lit(1L));
            b.output("nothing", litNull());
            b.output("first", lit(2L));
        }).build();
        Map<String, Object> out = store.outputs(p);
        assertEquals(List.of("first", "nothing"), List.copyOf(out.keySet()));
        assertEquals(2L, out.get("first"));
        assertTrue(out.containsKey("nothing"));
        assertNull(out.get("nothing"));
    }

    @Test
    void userAbortEndsTheRunAndNextIsThenRejected() {
        Procedure p = Procedure.define("ab", cat).params("x").body(b -> {
            b.read("kv", "r", lit(1L));
            b.abortIf(eq(in("x"), lit(0L)), "x is zero");
            b.write("kv", row("v", in("x")), lit(2L));
            b.abort("always");
            b.write("kv", row("v", in("x")), lit(3L));
        }).build();

        assertEquals(new ProcStep.Abort("x is zero"), store.drive(p, 0L));
        assertEquals(1, store.ops.size());

        ProcRun run = p.start(Inputs.of(5L));
        assertInstanceOf(ProcStep.Issue.class, run.next(null));
        assertInstanceOf(ProcStep.Issue.class, run.next(null));
        assertEquals(new ProcStep.Abort("always"), run.next(null));
        assertThrows(IllegalStateException.class, () -> run.next(null));
    }

    @Test
    void nextAfterDoneIsRejected() {
        Procedure p = Procedure.define("one", cat).body(b -> b.output("x", lit(1L))).build();
        ProcRun run = p.start(Inputs.NONE);
        assertEquals(new ProcStep.Done(Map.of("x", 1L)), run.next(null));
        assertThrows(IllegalStateException.class, () -> run.next(null));
    }

    @Test
    void startChecksInputCountAndTypes() {
        Procedure p = Procedure.define("two", cat).params("a", "b").body(b -> b.output("a", in("a"))).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.start(Inputs.of(1L)));
        assertEquals("two takes 2 inputs [a, b], got 1", e.getMessage());
        IllegalArgumentException t = assertThrows(IllegalArgumentException.class, () -> p.start(Inputs.of(1L, 2)));
        assertTrue(t.getMessage().startsWith("two: input 'b' is a Integer"), t.getMessage());
        assertInstanceOf(ProcRun.class, p.start(Inputs.of(null, new long[] {1})));
    }

    @Test
    void resultRowOfTheWrongTableIsRejected() {
        Procedure p = Procedure.define("wrong", cat).body(b -> b.read("kv", "r", lit(1L))).build();
        ProcRun run = p.start(Inputs.NONE);
        run.next(null);
        Row notKv = cat.table("item").row(1.0, "x");
        ProcedureException e = assertThrows(ProcedureException.class, () -> run.next(notKv));
        assertEquals("wrong: statement 1 (read kv): result row is of table item, expected kv", e.getMessage());
    }

    @Test
    void writeConvertsLongToDoubleColumnsAndLeavesOtherColumnsNull() {
        Procedure p = Procedure.define("conv", cat).body(b -> b.write("kv", row("d", lit(3L), "b", lit(new byte[] {7})),
                lit(1L))).build();
        store.outputs(p);
        Row r = store.get("kv", 1);
        assertEquals(3.0, r.get("d"));
        assertArrayEquals(new byte[] {7}, (byte[]) r.get("b"));
        assertNull(r.get("v"));
        assertNull(r.get("s"));
    }
}
