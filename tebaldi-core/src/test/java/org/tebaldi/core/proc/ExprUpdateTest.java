package org.tebaldi.core.proc;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.*;
import static org.tebaldi.core.proc.Tpcc.k;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.OpKind;

/** Partial evaluation of updates: what the TC ships, and what the data server computes from it. */
class ExprUpdateTest {
    private final Catalog cat = Tpcc.catalog();
    private final TableSchema stock = cat.table("stock");
    private final TableSchema kv = cat.table("kv");

    private static final Expr QTY_RULE = cond(ge(sub(col("s_quantity"), local("q")), lit(10L)),
            sub(col("s_quantity"), local("q")),
            add(sub(col("s_quantity"), local("q")), lit(91L)));

    private Procedure stockUpdate() {
        return Procedure.define("stock_upd", cat).params("w", "i", "qty", "remote").body(b -> {
            b.let("q", in("qty"));
            b.update("stock", "s", List.of(
                    set("s_quantity", QTY_RULE),
                    set("s_ytd", add(col("s_ytd"), mul(local("q"), lit(1L)))),
                    set("s_order_cnt", add(col("s_order_cnt"), lit(1L))),
                    set("s_remote_cnt", add(col("s_remote_cnt"), cond(in("remote"), lit(1L), lit(0L))))),
                    in("w"), in("i"));
            b.output("left", field("s", "s_quantity"));
        }).build();
    }

    /** The first issued op of a run with the given inputs. */
    private Op firstOp(Procedure p, Object... inputs) {
        ProcStep s = p.start(Inputs.of(inputs)).next(null);
        return assertInstanceOf(ProcStep.Issue.class, s).op();
    }

    private static boolean onlyResidual(Expr e) {
        if (e instanceof Expr.In || e instanceof Expr.Local || e instanceof Expr.Field) {
            return false;
        }
        return e.children().stream().allMatch(ExprUpdateTest::onlyResidual);
    }

    @Test
    void shippedUpdateHoldsOnlyConstantsColRefsAndOperators() {
        Op op = firstOp(stockUpdate(), 1L, 7L, 5L, true);
        assertEquals(OpKind.UPDATE, op.kind());
        ExprUpdate u = assertInstanceOf(ExprUpdate.class, op.update());
        assertEquals(stock, u.table());
        for (Assign a : u.assignments()) {
            assertTrue(onlyResidual(a.value()), a.toString());
        }
        assertEquals(List.of(
                set("s_quantity", cond(ge(sub(col("s_quantity"), lit(5L)), lit(10L)),
                        sub(col("s_quantity"), lit(5L)),
                        add(sub(col("s_quantity"), lit(5L)), lit(91L)))),
                set("s_ytd", add(col("s_ytd"), lit(5L))),
                set("s_order_cnt", add(col("s_order_cnt"), lit(1L))),
                set("s_remote_cnt", add(col("s_remote_cnt"), lit(1L)))), u.assignments());
    }

    @Test
    void dataServerComputesTheNewRowBothWaysOfTheQuantityRule() {
        Row old = stock.row(20L, 100L, 3L, 0L);
        ExprUpdate plenty = (ExprUpdate) firstOp(stockUpdate(), 1L, 7L, 5L, false).update();
        assertEquals(stock.row(15L, 105L, 4L, 0L), plenty.apply(old));
        ExprUpdate wrap = (ExprUpdate) firstOp(stockUpdate(), 1L, 7L, 11L, true).update();
        assertEquals(stock.row(100L, 111L, 4L, 1L), wrap.apply(old));
        assertEquals(stock.row(20L, 100L, 3L, 0L), old);
    }

    @Test
    void updateThroughTheStoreStoresNewRowAndResultLocal() {
        TestStore store = new TestStore(cat);
        store.put("stock", k(1, 7), 12L, 0L, 0L, 0L);
        assertEquals(Map.of("left", 94L), store.outputs(stockUpdate(), 1L, 7L, 9L, true));
        assertEquals(stock.row(94L, 9L, 1L, 1L), store.get("stock", 1, 7));
    }

    @Test
    void updateOfAbsentRowWritesNothingAndYieldsNull() {
        TestStore store = new TestStore(cat);
        Procedure p = Procedure.define("absent", cat).body(b -> {
            b.update("kv", "r", List.of(set("v", add(col("v"), lit(1L)))), lit(5L));
            b.output("none", isNull(local("r")));
        }).build();
        assertEquals(Map.of("none", true), store.outputs(p));
        assertTrue(store.rows.isEmpty());
    }

    @Test
    void assignmentsAreSimultaneousAndLongsWidenIntoDoubleColumns() {
        Procedure p = Procedure.define("swap", cat).body(b -> b.update("kv", null,
                List.of(set("v", toLong(col("d"))), set("d", col("v")), set("s", concat(col("s"), lit("!")))),
                lit(1L))).build();
        ExprUpdate u = (ExprUpdate) firstOp(p).update();
        assertEquals(kv.row(2L, 5.0, "hi!", null), u.apply(kv.row(5L, 2.75, "hi", null)));
    }

    @Test
    void fieldAndParamsAreEvaluatedAtTheCoordinator() {
        TestStore store = new TestStore(cat);
        store.put("kv", k(1), 4L, null, "tag", null);
        store.put("kv", k(2), 100L, 0.5, "x", null);
        Procedure p = Procedure.define("mix", cat).params("amount").body(b -> {
            b.read("kv", "src", lit(1L));
            b.update("kv", null, List.of(
                    set("v", sub(col("v"), mul(field("src", "v"), in("amount")))),
                    set("s", concat(field("src", "s"), lit(":"), col("s")))), lit(2L));
        }).build();
        store.outputs(p, 3L);
        ExprUpdate u = (ExprUpdate) store.ops.get(1).update();
        assertEquals(List.of(set("v", sub(col("v"), lit(12L))), set("s", concat(lit("tag"), lit(":"), col("s")))),
                u.assignments());
        assertEquals(kv.row(88L, 0.5, "tag:x", null), store.get("kv", 2));
    }

    @Test
    void ofRebuildsAnEquivalentUpdateFromShippedAssignments() {
        ExprUpdate shipped = (ExprUpdate) firstOp(stockUpdate(), 1L, 7L, 5L, true).update();
        ExprUpdate decoded = ExprUpdate.of(stock, shipped.assignments());
        assertEquals(shipped, decoded);
        Row old = stock.row(14L, 1L, 1L, 1L);
        assertEquals(shipped.apply(old), decoded.apply(old));
        ExprUpdate folded = ExprUpdate.of(kv, List.of(set("v", add(col("v"), add(lit(1L), lit(2L))))));
        assertEquals(List.of(set("v", add(col("v"), lit(3L)))), folded.assignments());
    }

    @Test
    void ofRejectsNonResidualExpressionsAndUnknownColumns() {
        ProcedureException e = assertThrows(ProcedureException.class,
                () -> ExprUpdate.of(kv, List.of(set("v", add(col("v"), in("x"))))));
        assertEquals("ExprUpdate of kv: assignment of v refers to in(\"x\"); only literals, col(..) and operators "
                + "are allowed", e.getMessage());
        ProcedureException c = assertThrows(ProcedureException.class,
                () -> ExprUpdate.of(kv, List.of(set("v", col("nope")))));
        assertEquals("ExprUpdate of kv: table kv has no column 'nope'; columns: [v, d, s, b]", c.getMessage());
        ProcedureException z = assertThrows(ProcedureException.class,
                () -> ExprUpdate.of(kv, List.of(set("v", add(col("v"), div(lit(1L), lit(0L)))))));
        assertEquals("ExprUpdate of kv: division by zero", z.getMessage());
    }

    @Test
    void dataServerErrorsNameTheStatement() {
        Procedure p = Procedure.define("srv", cat).body(b -> {
            b.let("x", lit(1L));
            b.update("kv", null, List.of(set("v", add(col("v"), local("x")))), lit(1L));
        }).build();
        ExprUpdate u = (ExprUpdate) firstOp(p).update();
        ProcedureException e = assertThrows(ProcedureException.class, () -> u.apply(kv.row(null, null, null, null)));
        assertEquals("srv: statement 2 (update kv) at the data server: null operand in add", e.getMessage());
        ProcedureException t = assertThrows(ProcedureException.class, () -> u.apply(stock.row(1L, 1L, 1L, 1L)));
        assertEquals("srv: statement 2 (update kv) at the data server: update of kv applied to a row of stock",
                t.getMessage());
    }

    @Test
    void holesAreCapturedAtIssueTimeIncludingLocalArrays() {
        Procedure p = Procedure.define("cap", cat).body(b -> {
            b.newArray("a", lit(1L));
            b.setElem("a", lit(0L), lit(5L));
            b.update("kv", null, List.of(set("v", add(col("v"), elem(local("a"), lit(0L))))), lit(1L));
            b.setElem("a", lit(0L), lit(1000L));
            b.update("kv", null, List.of(set("v", elem(local("a"), toLong(col("s"))))), lit(1L));
            b.setElem("a", lit(0L), lit(-1L));
        }).build();
        ProcRun run = p.start(Inputs.NONE);
        ExprUpdate first = (ExprUpdate) ((ProcStep.Issue) run.next(null)).op().update();
        ExprUpdate second = (ExprUpdate) ((ProcStep.Issue) run.next(null)).op().update();
        assertInstanceOf(ProcStep.Done.class, run.next(null));
        assertEquals(kv.row(6L, null, "0", null), first.apply(kv.row(1L, null, "0", null)));
        assertEquals(kv.row(1000L, null, "0", null), second.apply(kv.row(1L, null, "0", null)));
        assertTrue(onlyResidual(second.assignments().get(0).value()));
    }
}
