package org.tebaldi.core.proc;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.*;
import static org.tebaldi.core.proc.Tpcc.k;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.OpKind;

/**
 * Batched execution of stored procedures: the same operations in the same order with the same outcome as
 * one-at-a-time execution, in fewer round trips — writes never wait and a read waits only when its row is used.
 */
class BatchedRunTest {
    private final Catalog cat = Tpcc.catalog();

    private TestStore loaded() {
        return Tpcc.newOrderStore(cat);
    }

    @Test
    void newOrderBatchedEqualsSequentialInFewerRoundTrips() {
        Object[] in = {1L, 3L, 42L, new long[] {10, 20, 30}, new long[] {1, 1, 2}, new long[] {5, 4, 2}};
        TestStore seq = loaded();
        ProcStep a = seq.drive(NewOrderTest.newOrder(cat), in);
        TestStore bat = loaded();
        ProcStep b = bat.driveBatched(NewOrderTest.newOrder(cat), in);
        Object[] ea = (Object[]) ((ProcStep.Done) a).outputs().get("amounts");
        Object[] eb = (Object[]) assertInstanceOf(ProcStep.Done.class, b).outputs().get("amounts");
        assertEquals(List.of(ea), List.of(eb));
        assertEquals(((ProcStep.Done) a).outputs().get("total"), ((ProcStep.Done) b).outputs().get("total"));
        assertEquals(seq.rows, bat.rows, "same final state");
        assertEquals(seq.ops, bat.ops, "same operations in the same order");
        assertTrue(bat.batches < seq.ops.size() / 2, bat.batches + " batches for " + seq.ops.size() + " operations");
    }

    @Test
    void aUserAbortDropsTheBatchAndEndsTheRun() {
        TestStore bat = loaded();
        ProcStep s = bat.driveBatched(NewOrderTest.newOrder(cat), 1L, 3L, 42L, new long[] {10, 99},
                new long[] {1, 1}, new long[] {1, 1});
        assertEquals(new ProcStep.Abort("invalid item"), s);
    }

    @Test
    void writesGoOutTogetherAndAReadWaitsOnlyForItsUse() {
        Procedure p = Procedure.define("p", cat).params("w").body(b -> b
                .write("new_order", row(), in("w"), lit(1L), lit(1L))
                .write("new_order", row(), in("w"), lit(1L), lit(2L))
                .read("warehouse", "x", in("w"))
                .read("district", "d", in("w"), lit(3L))
                .output("tax", field("x", "w_tax"))
                .write("new_order", row(), in("w"), lit(1L), lit(3L))).build();
        TestStore s = loaded();
        ProcRun run = p.startBatched(Inputs.of(1L));
        ProcStep first = run.resume(List.of());
        List<OpKind> kinds = assertInstanceOf(ProcStep.Batch.class, first).ops().stream().map(o -> o.kind()).toList();
        assertEquals(List.of(OpKind.WRITE, OpKind.WRITE, OpKind.READ, OpKind.READ), kinds,
                "everything up to the first use of a read row goes out at once");
        List<org.tebaldi.core.model.Row> r = new java.util.ArrayList<>();
        for (var op : ((ProcStep.Batch) first).ops()) {
            r.add(s.apply(op));
        }
        ProcStep second = run.resume(r);
        assertEquals(1, assertInstanceOf(ProcStep.Batch.class, second).ops().size(), "the trailing write");
        ProcStep done = run.resume(java.util.Collections.singletonList(null));
        assertEquals(0.25, assertInstanceOf(ProcStep.Done.class, done).outputs().get("tax"));
        assertThrows(IllegalStateException.class, () -> run.resume(List.of()));
    }

    @Test
    void batchedAndSequentialApisDoNotMix() {
        Procedure p = Procedure.define("p", cat).params("w").body(b -> b.read("warehouse", "x", in("w"))).build();
        assertThrows(IllegalStateException.class, () -> p.startBatched(Inputs.of(1L)).next(null));
        assertThrows(IllegalStateException.class, () -> p.start(Inputs.of(1L)).resume(List.of()));
        ProcRun run = p.startBatched(Inputs.of(1L));
        run.resume(List.of());
        assertThrows(IllegalStateException.class, () -> run.resume(List.of()), "one result per operation");
    }

    /**
     * The shape runtime pipelining's scalar expansion produces: a loop reads a row per iteration, keeps the row, a
     * null test and a field of it in arrays, and a later loop uses them. The rows in flight are moved into the arrays
     * and the derived values computed when the batch returns, so the reads of every iteration go out together.
     */
    @Test
    void readsOfALoopThatOnlyStoreTheirRowsGoOutTogether() {
        Procedure p = Procedure.define("p", cat).params("ids").body(b -> {
            b.newArray("rows", len(in("ids")));
            b.newArray("absent", len(in("ids")));
            b.newArray("prices", len(in("ids")));
            b.forRange("i", lit(0L), len(in("ids")), 10, l -> {
                l.read("item", "it", elem(in("ids"), local("i")));
                l.let("missing", isNull(local("it")));
                l.setElem("absent", local("i"), local("missing"));
                l.setElem("rows", local("i"), local("it"));
                l.setElem("prices", local("i"), cond(isNull(local("it")), litNull(), field("it", "i_price")));
            });
            b.let("total", lit(0.0));
            b.forRange("i", lit(0L), len(in("ids")), 10, l -> l.ifThenElse(elem(local("absent"), local("i")),
                    t -> t.let("total", add(local("total"), lit(100.0))),
                    t -> t.let("total", add(local("total"), elem(local("prices"), local("i"))))));
            b.output("total", local("total"));
            b.output("firstAbsent", isNull(elem(local("rows"), lit(0L))));
        }).build();
        Object[] in = {new long[] {10, 20, 99, 30}};
        TestStore seq = loaded();
        assertEquals(assertInstanceOf(ProcStep.Done.class, seq.drive(p, in)).outputs(),
                assertInstanceOf(ProcStep.Done.class, loaded().driveBatched(p, in)).outputs());
        TestStore bat = loaded();
        ProcStep done = bat.driveBatched(p, in);
        assertEquals(1, bat.batches, "the four reads in one batch, not one each");
        assertEquals(106.5, ((ProcStep.Done) done).outputs().get("total"));
    }

    /**
     * A value derived from a row in flight is computed when the row arrives; if that fails (a field of an absent
     * row), the run fails as the one-at-a-time run does at that instruction — unless an abort that run meets first
     * ends it.
     */
    @Test
    void aFailedDerivedValueFailsTheRunInTheOneAtATimeOrder() {
        Procedure p = Procedure.define("p", cat).params("id", "check").body(b -> {
            b.newArray("prices", lit(1L));
            b.read("item", "it", in("id"));
            b.ifThen(in("check"), t -> t.abortIf(isNull(local("it")), "no such item"));
            b.setElem("prices", lit(0L), field("it", "i_price"));
            b.output("n", len(local("prices")));
        }).build();
        ProcedureException batched = assertThrows(ProcedureException.class, () -> loaded().driveBatched(p, 99L, false));
        ProcedureException oneByOne = assertThrows(ProcedureException.class, () -> loaded().drive(p, 99L, false));
        assertEquals(oneByOne.getMessage(), batched.getMessage());
        assertEquals(new ProcStep.Abort("no such item"), loaded().driveBatched(p, 99L, true), "the abort came first");
        assertEquals(new ProcStep.Abort("no such item"), loaded().drive(p, 99L, true));
        assertEquals(1L, assertInstanceOf(ProcStep.Done.class, loaded().driveBatched(p, 10L, true)).outputs().get("n"));
    }
}
