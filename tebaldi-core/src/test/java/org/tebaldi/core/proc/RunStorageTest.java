package org.tebaldi.core.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.*;
import static org.tebaldi.core.proc.Tpcc.k;

import java.lang.management.ManagementFactory;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.proc.Kinds.Kind;
import org.tebaldi.core.testkit.TestStore;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;

/**
 * Where a run keeps its values: primitive slots for locals of kind LONG and DOUBLE, also when the value is derived
 * from a row in flight (batched runs); a workspace reused from run to run, never shared by two runs in flight; and
 * no allocation per value in flight.
 */
class RunStorageTest {
    private final Catalog cat = Tpcc.catalog();

    private TestStore loaded(boolean item1, boolean item2, String name2) {
        TestStore s = new TestStore(cat);
        if (item1) {
            s.put("item", k(1), 2.5, "one");
        }
        if (item2) {
            s.put("item", k(2), 4.0, name2);
        }
        return s;
    }

    /**
     * Two reads in flight, a double and a long derived from their rows into primitive slots, a deferred null check
     * between them, a write that needs none of them (so it joins the reads' batch), then uses of the derived values.
     */
    private Procedure derivedIntoPrimitiveSlots() {
        return Procedure.define("derive", cat).params("check").body(b -> {
            b.read("item", "it1", lit(1L));
            b.read("item", "it2", lit(2L));
            b.let("p1", toDouble(field("it1", "i_price")));
            b.ifThen(in("check"), t -> t.abortIf(isNull(local("it2")), "no item 2"));
            b.let("n2", toLong(field("it2", "i_name")));
            b.newArray("moved", lit(2L));
            b.setElem("moved", lit(0L), local("p1"));
            b.let("n2copy", local("n2"));
            b.write("kv", row("v", lit(1L)), lit(9L));
            b.output("sum", add(local("p1"), toDouble(local("n2copy"))));
            b.output("moved", local("moved"));
        }).build();
    }

    @Test
    void valuesDerivedIntoPrimitiveSlotsMatchTheOneAtATimeRun() {
        Procedure p = derivedIntoPrimitiveSlots();
        Map<String, Kind> kinds = Kinds.locals(p.body());
        assertEquals(Kind.DOUBLE, kinds.get("p1"));
        assertEquals(Kind.LONG, kinds.get("n2"));
        assertEquals(Kind.LONG, kinds.get("n2copy"));
        int cases = 0;
        for (boolean item1 : new boolean[] {true, false}) {
            for (boolean item2 : new boolean[] {true, false}) {
                for (String name2 : new String[] {"12", "twelve"}) {
                    for (boolean check : new boolean[] {true, false}) {
                        TestStore.Outcome one = loaded(item1, item2, name2).run(p, check);
                        TestStore bat = loaded(item1, item2, name2);
                        TestStore.Outcome batched = runBatched(bat, p, check);
                        String what = item1 + "/" + item2 + "/" + name2 + "/" + check;
                        assertEquals(one.kind(), batched.kind(), what);
                        assertEquals(one.detail(), batched.detail(), what);
                        assertEquals(one.message(), batched.message(), what);
                        assertEquals(one.rows(), batched.rows(), what);
                        assertEquals(1, bat.batches, what + ": the write went out with the reads");
                        cases++;
                    }
                }
            }
        }
        assertEquals(16, cases);
        assertEquals("DONE", loaded(true, true, "12").run(p, true).kind());
        assertEquals("{moved=[2.5, null], sum=14.5}", loaded(true, true, "12").run(p, true).detail());
        assertEquals(new ProcStep.Abort("no item 2"), loaded(true, false, "12").driveBatched(p, true),
                "the check comes before n2 fails");
        ProcedureException e = assertThrows(ProcedureException.class,
                () -> loaded(false, false, "12").driveBatched(p, true));
        assertEquals("derive: statement 3 (let p1): row 'it1' is null (the row was absent)", e.getMessage(),
                "p1 fails before the check");
        e = assertThrows(ProcedureException.class, () -> loaded(true, true, "twelve").driveBatched(p, true));
        assertEquals("derive: statement 6 (let n2): toLong: 'twelve' is not a long", e.getMessage());
    }

    private static TestStore.Outcome runBatched(TestStore s, Procedure p, Object... inputs) {
        Map<Key, Row> before = new HashMap<>(s.rows);
        try {
            ProcStep step = s.driveBatched(p, inputs);
            if (step instanceof ProcStep.Done d) {
                Map<String, String> out = new java.util.TreeMap<>();
                d.outputs().forEach((k, v) -> out.put(k, Values.show(v)));
                return new TestStore.Outcome("DONE", out.toString(), dump(s), "");
            }
            s.rows.clear();
            s.rows.putAll(before);
            return new TestStore.Outcome("ABORT", ((ProcStep.Abort) step).reason(), dump(s), "");
        } catch (ProcedureException e) {
            s.rows.clear();
            s.rows.putAll(before);
            return new TestStore.Outcome("ERROR", "", dump(s), e.getMessage());
        }
    }

    private static Map<String, String> dump(TestStore s) {
        Map<String, String> m = new java.util.TreeMap<>();
        s.rows.forEach((k, v) -> m.put(k.toString(), v.toString()));
        return m;
    }

    /** Runs of one procedure in flight at once, resumed in turn, each get what they get alone. */
    @Test
    void runsInFlightAtOnceShareNoStorage() {
        Procedure p = NewOrderTest.newOrder(cat);
        Object[][] inputs = {
            {1L, 3L, 42L, new long[] {10, 20, 30}, new long[] {1, 1, 2}, new long[] {5, 4, 2}},
            {1L, 3L, 42L, new long[] {30, 10}, new long[] {2, 1}, new long[] {1, 9}},
            {1L, 3L, 42L, new long[] {20}, new long[] {1}, new long[] {3}},
            {1L, 3L, 42L, new long[] {10, 99}, new long[] {1, 1}, new long[] {1, 1}},
        };
        List<ProcStep> alone = new ArrayList<>();
        for (Object[] in : inputs) {
            alone.add(newOrderStore().driveBatched(p, in));
        }
        for (int round = 0; round < 3; round++) {
            List<TestStore> stores = new ArrayList<>();
            List<ProcRun> runs = new ArrayList<>();
            List<List<Row>> results = new ArrayList<>();
            ProcStep[] last = new ProcStep[inputs.length];
            for (Object[] in : inputs) {
                stores.add(newOrderStore());
                runs.add(p.startBatched(Inputs.of(in)));
                results.add(List.of());
            }
            boolean busy = true;
            while (busy) {
                busy = false;
                for (int r = 0; r < runs.size(); r++) {
                    if (last[r] != null && !(last[r] instanceof ProcStep.Batch)) {
                        continue;
                    }
                    last[r] = runs.get(r).resume(results.get(r));
                    if (last[r] instanceof ProcStep.Batch b) {
                        List<Row> rows = new ArrayList<>();
                        for (Op op : b.ops()) {
                            rows.add(stores.get(r).apply(op));
                        }
                        results.set(r, rows);
                        busy = true;
                    }
                }
            }
            for (int r = 0; r < runs.size(); r++) {
                assertEquals(show(alone.get(r)), show(last[r]), "run " + r + " in round " + round);
                int finished = r;
                assertThrows(IllegalStateException.class, () -> runs.get(finished).resume(List.of()),
                        "a finished run refuses to go on");
            }
        }
        ProcRun dropped = p.startBatched(Inputs.of(inputs[0]));
        assertInstanceOf(ProcStep.Batch.class, dropped.resume(List.of()));
        assertEquals(show(alone.get(1)), show(newOrderStore().driveBatched(p, inputs[1])),
                "a run dropped with a batch in flight leaves nothing behind");
        assertEquals(new ProcStep.Abort("invalid item"), alone.get(3));
    }

    private TestStore newOrderStore() {
        return Tpcc.newOrderStore(cat);
    }

    private static String show(ProcStep s) {
        if (s instanceof ProcStep.Done d) {
            Map<String, String> m = new java.util.TreeMap<>();
            d.outputs().forEach((k, v) -> m.put(k, Values.show(v)));
            return "Done" + m;
        }
        return String.valueOf(s);
    }

    /** A result row of another table than the one read fails the run at the read, as one at a time. */
    @Test
    void aResultRowOfTheWrongTableFailsTheBatchedRunAtItsRead() {
        Procedure p = Procedure.define("wrong", cat).body(b -> b.read("kv", "r", lit(1L)).output("r", local("r")))
                .build();
        ProcRun run = p.startBatched(Inputs.NONE);
        assertInstanceOf(ProcStep.Batch.class, run.resume(List.of()));
        Row notKv = cat.table("item").row(1.0, "x");
        ProcedureException e = assertThrows(ProcedureException.class, () -> run.resume(List.of(notKv)));
        assertEquals("wrong: statement 1 (read kv): result row is of table item, expected kv", e.getMessage());
    }

    /**
     * Runtime pipelining's scalar expansion: each iteration reads a row in flight and stores it, a value derived
     * from it and a long in arrays; a later loop sums what the rows held. Per extra iteration a batched run
     * allocates the read it issues (operation, key, key parts), two array elements and the batch list's slot,
     * nothing per value in flight (an interpreter that allocated a placeholder object per value in flight, or a
     * frame per derived value, allocates well over twice that).
     */
    @Test
    void valuesInFlightAllocateNothing() {
        Procedure p = Procedure.define("expand", cat).params("ids").body(b -> {
            b.newArray("rows", len(in("ids")));
            b.newArray("prices", len(in("ids")));
            b.let("t", lit(0L));
            b.forRange("i", lit(0L), len(in("ids")), 1000, l -> {
                l.read("item", "it", elem(in("ids"), local("i")));
                l.setElem("rows", local("i"), local("it"));
                l.let("absent", isNull(local("it")));
                l.setElem("prices", local("i"), cond(isNull(local("it")), litNull(), field("it", "i_price")));
                l.let("t", add(local("t"), mul(local("i"), lit(1000L))));
            });
            b.let("total", lit(0.0));
            b.forRange("i", lit(0L), len(in("ids")), 1000, l ->
                    l.let("total", add(local("total"), elem(local("prices"), local("i")))));
            b.output("total", local("total"));
            b.output("t", local("t"));
        }).build();
        Map<Key, Row> rows = new HashMap<>();
        for (long id = 1; id <= 100; id++) {
            rows.put(Key.of(cat.table("item"), id), cat.table("item").row(0.5 * id, "item" + id));
        }
        long[] small = ids(20);
        long[] large = ids(60);
        for (int i = 0; i < 2000; i++) {
            run(p, rows, small);
            run(p, rows, large);
        }
        assertEquals(105.0, assertInstanceOf(ProcStep.Done.class, run(p, rows, small)).outputs().get("total"));
        long perIteration = (allocated(p, rows, large) - allocated(p, rows, small)) / (large.length - small.length);
        System.out.println("RunStorageTest: " + perIteration + " bytes per iteration");
        assertTrue(perIteration <= 150, perIteration + " bytes per iteration");
    }

    private static long[] ids(int n) {
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i + 1;
        }
        return ids;
    }

    /** Bytes the current thread allocates per run of {@code p} over {@code ids} (average of 1000 runs). */
    private static long allocated(Procedure p, Map<Key, Row> rows, long[] ids) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1000; i++) {
            run(p, rows, ids);
        }
        return (mx.getCurrentThreadAllocatedBytes() - before) / 1000;
    }

    private static final Results RESULTS = new Results();

    /** Runs {@code p} batched against {@code rows} (reads only), handing results back in a reused list. */
    private static ProcStep run(Procedure p, Map<Key, Row> rows, long[] ids) {
        ProcRun run = p.startBatched(Inputs.of((Object) ids));
        RESULTS.size = 0;
        while (true) {
            ProcStep s = run.resume(RESULTS);
            if (!(s instanceof ProcStep.Batch b)) {
                return s;
            }
            for (int i = 0; i < b.ops().size(); i++) {
                RESULTS.rows[i] = rows.get(b.ops().get(i).key());
            }
            RESULTS.size = b.ops().size();
        }
    }

    private static final class Results extends AbstractList<Row> {
        final Row[] rows = new Row[ProcRun.MAX_BATCH];
        int size;

        @Override
        public Row get(int i) {
            return rows[i];
        }

        @Override
        public int size() {
            return size;
        }
    }
}
