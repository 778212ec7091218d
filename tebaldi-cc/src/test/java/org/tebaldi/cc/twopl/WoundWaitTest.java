package org.tebaldi.cc.twopl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.cc.testkit.FakeDs;
import org.tebaldi.cc.testkit.FakeOp;
import org.tebaldi.cc.testkit.FakeTxn;
import org.tebaldi.cc.testkit.Probe;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Op;

/**
 * 2PL's {@code deadlock: wound-wait} at one data server (Rosenkrantz et al. 1978): an older requester wounds a
 * younger conflicting holder or waiter (dooms it, aborts the request it parked here, tells its coordinator) and
 * waits for its locks; a younger requester waits; the wounded transaction's abort grants the older one.
 */
class WoundWaitTest {
    private final TableSchema table = new Catalog().add("t", 1, 0, false, Catalog.longCol("v"));
    private final Key k1 = Key.of(table, 1);
    private final Key k2 = Key.of(table, 2);
    private FakeDs ds;
    private DsPart<WoundWaitDsPart.State> part;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void setUp() {
        ds = new FakeDs();
        CcTree tree = CcTree.build(TreeSpec.leaf("2pl", "A").option("deadlock", "wound-wait")
                .option("lockTimeout", "10s"), "ww");
        part = (DsPart<WoundWaitDsPart.State>) new TwoPhaseLocking().dsPart(tree.root(), ds);
    }

    private Probe lock(FakeTxn t, Op op) {
        Probe p = new Probe();
        part.execute(t, t.stateFor(0, part), new FakeOp(op, new VersionChain()), p);
        ds.drain();
        return p;
    }

    private void end(FakeTxn t, boolean committed) {
        part.finish(t, t.stateFor(0, part), committed, null);
        t.finish(ds, committed);
        ds.drain();
    }

    @Test
    void aYoungerRequesterWaitsForAnOlderHolder() {
        FakeTxn old = new FakeTxn(1, 0, 50);
        FakeTxn young = new FakeTxn(2, 0, 100);
        assertTrue(lock(old, Op.write(k1, table.row(1L))).proceeded);
        Probe p = lock(young, Op.write(k1, table.row(2L)));
        assertTrue(p.parked(), "younger waits");
        assertNull(old.doomed, "nobody is wounded");
        end(old, true);
        assertTrue(p.proceeded);
    }

    @Test
    void theOlderWoundsTheYoungerAndNoDeadlockForms() {
        FakeTxn old = new FakeTxn(1, 0, 50);
        FakeTxn young = new FakeTxn(2, 0, 100);
        assertTrue(lock(young, Op.write(k1, table.row(1L))).proceeded);
        assertTrue(lock(old, Op.write(k2, table.row(1L))).proceeded);
        Probe youngWaits = lock(young, Op.write(k2, table.row(2L)));
        assertTrue(youngWaits.parked(), "younger waits for the older holder");
        Probe oldWaits = lock(old, Op.read(k1));
        assertTrue(oldWaits.parked(), "the older waits for the wounded one's locks");
        assertNotNull(youngWaits.aborted, "the wound aborts the younger's parked request at once");
        assertTrue(youngWaits.aborted.retryable());
        assertEquals("wound-wait: T-1.2 wounded by older T-1.1 on " + k1 + " at 2pl node 0",
                youngWaits.aborted.message());
        assertEquals(youngWaits.aborted.message(), young.doomed, "doomed here too");
        assertEquals(List.of("tc-1:" + new TwoPlMessages.Wound(2, young.doomed)), ds.sent,
                "the wound goes to the younger's coordinator");
        end(young, false);
        assertTrue(oldWaits.proceeded, "granted when the wounded transaction's abort released its lock");
        assertEquals(1L, part.counters().get("2pl.wounds"));
    }

    @Test
    void sharedLocksDoNotWoundAndAnOlderWriterWoundsEveryYoungerReader() {
        FakeTxn oldest = new FakeTxn(1, 0, 10);
        FakeTxn old = new FakeTxn(2, 0, 50);
        FakeTxn young = new FakeTxn(3, 0, 100);
        assertTrue(lock(young, Op.read(k1)).proceeded);
        assertTrue(lock(old, Op.read(k1)).proceeded, "S/S: no wound");
        assertNull(young.doomed);
        Probe up = lock(oldest, Op.write(k1, table.row(1L)));
        assertTrue(up.parked());
        assertNotNull(young.doomed, "the oldest wounds both younger readers");
        assertNotNull(old.doomed);
        end(young, false);
        assertTrue(up.parked(), "old still holds S");
        end(old, false);
        assertTrue(up.proceeded, "granted once both wounded readers aborted, long before the 10 s timeout");
    }

    @Test
    void aRelayedWoundAbortsTheRequestParkedHere() {
        FakeTxn old = new FakeTxn(1, 0, 50);
        FakeTxn young = new FakeTxn(2, 0, 100);
        assertTrue(lock(old, Op.write(k1, table.row(1L))).proceeded);
        Probe p = lock(young, Op.write(k1, table.row(2L)));
        assertTrue(p.parked());
        ds.txns.put(young.id(), young);
        part.onMessage(org.tebaldi.core.runtime.NodeId.tc(0), new TwoPlMessages.Wound(young.id(), "wound-wait: test"));
        ds.drain();
        assertNotNull(p.aborted);
        assertEquals("wound-wait: test", p.aborted.message());
        assertEquals(List.of(), ds.sent, "a relayed wound is not sent back");
    }
}
