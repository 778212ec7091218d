package org.tebaldi.cc.rp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.cc.testkit.FakeDs;
import org.tebaldi.cc.testkit.FakeOp;
import org.tebaldi.cc.testkit.FakeTxn;
import org.tebaldi.cc.testkit.Probe;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Op;

/**
 * A finished transaction's RP state at a data server refers to no other transaction (docs/performance.md, "The heap
 * at 200 clients"): kept, the dependencies found here ({@code depsHere}) chained each finished transaction to its
 * predecessors, so one live transaction kept every earlier one and its writes reachable. Checked over every field of
 * {@link RpDsPart.Steps}, so a field added later is held to the same rule.
 */
class RpDsPartRetentionTest {
    private final Catalog cat = new Catalog();
    private final TableSchema a = cat.add("a", 1, -1, false, Catalog.longCol("v"));
    private final TableSchema b = cat.add("b", 1, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);
    private final FakeDs ds = new FakeDs();
    private final RpDsPart part;
    private final int stepA;

    RpDsPartRetentionTest() {
        db.interactive("W", false, List.of("a", "b"));
        CcTree tree = CcTree.build(TreeSpec.leaf("rp", "W").option("lockTimeout", "1s"), "rp-retention");
        ds.db = db;
        part = (RpDsPart) new RuntimePipelining().dsPart(tree.root(), ds);
        stepA = RpPlan.of(tree.root(), db).stepOf(a.id());
    }

    private RpDsPart.Steps st(FakeTxn t) {
        return t.stateFor(0, part);
    }

    /** Runs one operation through execute and afterOp, as the data server does; returns whether it proceeded. */
    private boolean op(FakeTxn t, Op op, VersionChain chain) {
        Probe p = new Probe();
        FakeOp ctx = new FakeOp(op, chain);
        part.execute(t, st(t), ctx, p);
        ds.drain();
        if (p.proceeded) {
            part.afterOp(t, st(t), ctx);
        }
        return p.proceeded;
    }

    /** The transaction leaves step a: its step lock there is released (the request carries the step it finished). */
    private void releaseStepA(FakeTxn t) {
        t.setMeta(0, new RpMessages.Meta(stepA + 1, stepA));
        part.onRequest(t, st(t));
    }

    private void commit(FakeTxn t) {
        part.finish(t, st(t), true, null);
        t.finish(ds, true);
        ds.drain();
    }

    @Test
    void aFinishedTransactionsStateHoldsNoOtherTransaction() {
        Key k = Key.of(a, 1);
        VersionChain chain = new VersionChain();
        // a chain of dependencies: each transaction writes k after the previous one released step a
        List<FakeTxn> txns = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            FakeTxn t = new FakeTxn(i, 0, i);
            assertTrue(op(t, Op.write(k, a.row((long) i)), chain), "T" + i + " enters step a");
            releaseStepA(t);
            txns.add(t);
        }
        assertTrue(references(st(txns.get(3))).contains(txns.get(2)),
                "the last writer depends on the one before it at k (otherwise this test checks nothing)");
        // the predecessors commit in order; the last one stays live
        for (int i = 0; i < 3; i++) {
            commit(txns.get(i));
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(List.of(), references(st(txns.get(i))),
                    "finished T" + (i + 1) + "'s RP state still refers to other transactions");
        }
    }

    /** Every transaction reachable from the state's fields, directly or as an element of a collection or map. */
    private static List<DsTxn> references(RpDsPart.Steps st) {
        List<DsTxn> found = new ArrayList<>();
        for (Field f : RpDsPart.Steps.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            try {
                collect(f.get(st), found, 0);
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        return found;
    }

    private static void collect(Object v, List<DsTxn> found, int depth) {
        if (v == null || depth > 3) {
            return;
        }
        if (v instanceof DsTxn t) {
            found.add(t);
        } else if (v instanceof Collection<?> c) {
            c.forEach(x -> collect(x, found, depth + 1));
        } else if (v instanceof Map<?, ?> m) {
            m.values().forEach(x -> collect(x, found, depth + 1));
        } else if (v instanceof Record r) {
            for (var c : r.getClass().getRecordComponents()) {
                try {
                    var acc = c.getAccessor();
                    acc.setAccessible(true);
                    collect(acc.invoke(r), found, depth + 1);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
        }
    }
}
