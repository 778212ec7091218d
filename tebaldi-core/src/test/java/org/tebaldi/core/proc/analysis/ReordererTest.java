package org.tebaldi.core.proc.analysis;

import org.tebaldi.core.testkit.Pretty;
import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Block;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.ProcedureException;

/** Reordering flat code, ifs and loops; impossible orders; aborts; equivalence on random stores and inputs. */
class ReordererTest {
    private static final ToIntFunction<String> ABC = Schema.steps(Map.of("a", 0, "b", 1, "c", 2, "d", 3));
    private final Catalog cat = Schema.abcd();

    private Procedure proc(Consumer<Block> body) {
        return Procedure.define("p", cat).params("k", "arr").body(body).build();
    }

    /** Reorders by {@link #ABC} and checks equivalence on 300 random stores and inputs. */
    private Procedure reorderAndCheck(Procedure p) {
        Procedure q = Reorderer.reorder(p, ABC);
        Random rnd = new Random(42);
        RandomPrograms gen = new RandomPrograms(rnd, cat, false);
        for (int i = 0; i < 300; i++) {
            Object[] in = gen.inputs();
            Equivalence.check(p, q, ABC, gen.store(), new Object[] {in[0], in[2]});
        }
        return q;
    }

    @Test
    void flatAccessesRunByStepAndKeepTheirOrderWithinAStep() {
        Procedure q = reorderAndCheck(proc(b -> {
            b.read("c", "rc", in("k"));
            b.read("b", "rb", in("k"));
            b.let("kk", add(in("k"), lit(1L)));
            b.write("a", row("v", in("k")), local("kk"));
            b.read("b", "rb2", lit(2L));
            b.output("o", cond(isNull(local("rc")), lit(0L), field("rc", "v")));
        }));
        assertEquals("let kk; write a; read b; read b; read c; output o", Pretty.outline(q.body()));
    }

    @Test
    void aProcedureAlreadyInStepOrderIsUnchanged() {
        Procedure p = proc(b -> {
            b.read("a", "ra", in("k"));
            b.ifThen(isNull(local("ra")), t -> t.abort("none"));
            b.forRange("i", lit(0L), field("ra", "v"), 4, l -> l.write("b", row("v", local("i")), local("i")));
            b.update("c", null, List.of(set("v", add(col("v"), lit(1L)))), field("ra", "w"));
        });
        assertEquals(p.body(), reorderAndCheck(p).body());
    }

    @Test
    void anAccessDependingOnALaterStepIsRejectedNamingBothStatementsAndTables() {
        ProcedureException e = assertThrows(ProcedureException.class, () -> Reorderer.reorder(proc(b -> {
            b.let("x", lit(1L));
            b.read("c", "rc", in("k"));
            b.let("y", cond(isNull(local("rc")), lit(0L), field("rc", "v")));
            b.write("a", row("v", local("y")), in("k"));
        }), ABC));
        assertEquals("p: accesses cannot run in step order: statement 4 (write a) on table a (step 0) depends on "
                + "statement 2 (read c) on table c (step 2)", e.getMessage());
    }

    @Test
    void aControlDependencyOnALaterStepIsRejectedToo() {
        ProcedureException e = assertThrows(ProcedureException.class, () -> Reorderer.reorder(proc(b -> {
            b.read("b", "rb", in("k"));
            b.forRange("i", lit(0L), lit(3L), 3, l -> l.ifThen(isNull(local("rb")),
                    t -> t.delete("a", local("i"))));
        }), ABC));
        assertEquals("p: accesses cannot run in step order: statement 4 (delete a) on table a (step 0) depends on "
                + "statement 1 (read b) on table b (step 1)", e.getMessage());
    }

    @Test
    void anIfSpanningStepsIsSplitOnItsConditionEvaluatedOnce() {
        Procedure q = reorderAndCheck(proc(b -> {
            b.read("r", "rr", in("k"));
            b.ifThenElse(isNull(local("rr")), t -> {
                t.write("b", row("v", lit(1L)), in("k"));
                t.write("a", row("v", lit(2L)), in("k"));
            }, e -> e.write("c", row("v", field("rr", "v")), in("k")));
            b.ifThen(gt(in("k"), lit(2L)), t -> {
                t.delete("c", in("k"));
                t.delete("a", in("k"));
            });
        }));
        assertEquals("read r; let c$2; if { write a }; if { delete a }; if { write b }; "
                + "if {  } else { write c }; if { delete c }", Pretty.outline(q.body()));
        assertEquals(new org.tebaldi.core.proc.Stmt.Let("c$2", isNull(local("rr"))), q.body().get(1));
    }

    @Test
    void aLoopSpanningStepsIsSplitAndCarriedLocalsAreExpandedIntoArrays() {
        Procedure q = reorderAndCheck(proc(b -> {
            b.let("sum", lit(0L));
            b.forRange("i", lit(0L), len(in("arr")), 4, l -> {
                l.read("b", "rb", elem(in("arr"), local("i")));
                l.read("a", "ra", elem(in("arr"), local("i")));
                l.let("s", add(cond(isNull(local("rb")), lit(0L), field("rb", "v")),
                        cond(isNull(local("ra")), lit(0L), field("ra", "w"))));
                l.let("sum", add(local("sum"), local("s")));
                l.write("c", row("v", local("s"), "w", local("sum")), elem(in("arr"), local("i")));
            });
            b.output("sum", local("sum"));
        }));
        assertEquals("let sum; let n$2; newArray ra$2; newArray ra$2$w; newArray s$2; newArray sum$2; "
                        + "for i { read a; setElem ra$2; setElem ra$2$w }; "
                        + "for i { read b; let s; let sum; setElem s$2; setElem sum$2 }; output sum; "
                        + "for i { write c }",
                Pretty.outline(q.body()));
    }

    @Test
    void rowLocalsReadInALaterStepOutsideLoopsSimplyStayAssigned() {
        Procedure q = reorderAndCheck(proc(b -> {
            b.read("b", "rb", in("k"));
            b.read("a", "ra", in("k"));
            b.write("d", row("v", cond(isNull(local("rb")), lit(0L), field("rb", "v"))), in("k"));
            b.write("c", row("v", cond(isNull(local("ra")), lit(0L), field("ra", "v"))), in("k"));
        }));
        assertEquals("read a; read b; write c; write d", Pretty.outline(q.body()));
        assertTrue(!q.body().toString().contains("$"), q.body().toString());
    }

    @Test
    void nestedSplitLoopsUseIterationCounters() {
        Procedure q = reorderAndCheck(proc(b -> b.forRange("i", lit(0L), len(in("arr")), 4,
                o -> o.forRange("j", lit(0L), elem(in("arr"), local("i")), 4, l -> {
                    l.read("b", "rb", local("j"));
                    l.read("a", "ra", add(local("i"), local("j")));
                    l.write("c", row("v", cond(isNull(local("ra")), local("j"), field("ra", "v")),
                            "w", cond(isNull(local("rb")), lit(0L), field("rb", "w"))), local("j"));
                }))));
        assertTrue(q.body().toString().contains("k$2$0"), q.body().toString());
        assertEquals("newArray ra$2; newArray ra$2$v; newArray rb$2; newArray rb$2$w; let k$2$0; let k$2$1; "
                + "let k$2$2; let n$1; newArray t$2$1; for i { let t$2; setElem t$2$1 }; "
                + "for i { for j { read a; setElem ra$2; setElem ra$2$v; let k$2$0 } }; "
                + "for i { for j { read b; setElem rb$2; setElem rb$2$w; let k$2$1 } }; "
                + "for i { for j { write c; let k$2$2 } }", Pretty.outline(q.body()));
    }

    @Test
    void userAbortsKeepTheirOrderSoTheReasonIsTheOriginalOne() {
        Procedure p = proc(b -> {
            b.read("b", "rb", in("k"));
            b.abortIf(isNull(local("rb")), "no b");
            b.read("a", "ra", in("k"));
            b.abortIf(isNull(local("ra")), "no a");
            b.write("c", row("v", field("ra", "v"), "w", field("rb", "w")), in("k"));
        });
        Procedure q = reorderAndCheck(p);
        assertEquals("read a; let c$5; read b; if { abort }; if { abort }; write c", Pretty.outline(q.body()));
        TestStore empty = new TestStore(cat);
        assertEquals("no b", empty.run(q, 1L, new long[0]).detail());
        empty.put("b", new long[] {1}, 5L, 6L);
        assertEquals("no a", empty.run(q, 1L, new long[0]).detail());
    }

    @Test
    void anAbortInASplitLoopRunsInOneStepAndStillAbortsAfterEarlierAccesses() {
        Procedure p = proc(b -> b.forRange("i", lit(0L), len(in("arr")), 4, l -> {
            l.write("c", row("v", local("i")), local("i"));
            l.read("a", "ra", elem(in("arr"), local("i")));
            l.abortIf(isNull(local("ra")), "missing a");
            l.write("b", row("v", field("ra", "v")), local("i"));
        }));
        Procedure q = reorderAndCheck(p);
        assertEquals("let n$1; newArray ra$1; newArray ra$1$v; for i { read a; if { abort }; setElem ra$1; "
                + "setElem ra$1$v }; for i { write b }; for i { write c }", Pretty.outline(q.body()));
        TestStore st = new TestStore(cat);
        st.put("a", new long[] {1}, 5L, 6L);
        TestStore.Outcome o = st.run(q, 0L, new long[] {1, 2});
        assertEquals("ABORT", o.kind());
        assertEquals("missing a", o.detail());
        assertEquals(0, st.rows.keySet().stream().filter(k -> k.table() != cat.table("a").id()).count());
    }

    @Test
    void aLocalAssignedByAnAccessAndByALaterStepInsideASplitLoopIsRejected() {
        ProcedureException e = assertThrows(ProcedureException.class, () -> Reorderer.reorder(proc(b ->
                b.forRange("i", lit(0L), lit(3L), 3, l -> {
                    l.read("a", "x", local("i"));
                    l.read("b", "rb", local("i"));
                    l.ifThen(isNull(local("rb")), t -> t.let("x", litNull()));
                    l.write("c", row("v", cond(isNull(local("x")), lit(0L), field("x", "v"))), local("i"));
                })), ABC));
        assertEquals("p: cannot split statement 1 (for i) by step: local 'x' is assigned in step 0 by statement 2 "
                + "(read a) and in step 1 by statement 5 (let x) inside the loop; use distinct locals",
                e.getMessage());
    }

    @Test
    void copyingACarriedRowIntoAnotherLocalInALaterStepIsRejected() {
        ProcedureException e = assertThrows(ProcedureException.class, () -> Reorderer.reorder(proc(b ->
                b.forRange("i", lit(0L), lit(3L), 3, l -> {
                    l.read("a", "ra", local("i"));
                    l.read("b", "rb", local("i"));
                    l.let("pick", cond(isNull(local("rb")), local("ra"), litNull()));
                    l.write("c", row("v", cond(isNull(local("pick")), lit(0L), field("pick", "v"))), local("i"));
                })), ABC));
        assertEquals("p: cannot split statement 1 (for i) by step: statement 4 (let pick) copies the row or array "
                + "local 'ra' of step 0 in step 1; read its fields or elements there instead", e.getMessage());
    }

    @Test
    void aStepBelowMinusOneIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Reorderer.reorder(proc(b -> b.read("a", null, lit(1L))), t -> -2));
        assertEquals("step of table a is -2; steps are >= 0, or -1 for a table accessible in any step",
                e.getMessage());
    }
}
