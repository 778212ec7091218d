package org.tebaldi.cc.twopl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.cc.testkit.FakeDs;
import org.tebaldi.cc.testkit.FakeOp;
import org.tebaldi.cc.testkit.FakeTxn;
import org.tebaldi.cc.testkit.Probe;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.lock.TxnLocks;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Op;

/**
 * 2PL as a CC-tree node (dissertation §4.4.1): lock compatibility within and across groups, lock-wait timeout,
 * wait-die, no-wait, the nexus lock release order (§3.3.2) and the read rule.
 */
class TwoPlTest {
    private final TableSchema table = new Catalog().add("t", 1, 0, false, Catalog.longCol("v"));
    private final Key k = Key.of(table, 1);
    // root 2pl (id 0, depth 0) over leaf A = 2pl (id 1) and leaf B = 2pl (id 2)
    private final CcTree tree = CcTree.build(TreeSpec.inner("2pl", TreeSpec.leaf("2pl", "A"),
            TreeSpec.leaf("2pl", "B")).option("lockTimeout", "10ms"), "test");
    private FakeDs ds;
    private At root;
    private At leafA;
    private final int leafIdA = 1;
    private final int leafIdB = 2;

    @BeforeEach
    void setUp() {
        ds = new FakeDs();
        root = new At(plain(tree.root(), ds), 0);
        leafA = new At(plain(tree.node(leafIdA), ds), 1);
    }

    @SuppressWarnings("unchecked")
    private static DsPart<TxnLocks> plain(org.tebaldi.core.tree.CcNode n, FakeDs ds) {
        return (DsPart<TxnLocks>) new TwoPhaseLocking().dsPart(n, ds);
    }

    /** A 2PL part at a level of the path, keeping each transaction's state as the data server does. */
    private record At(DsPart<TxnLocks> part, int level) {
        TxnLocks st(FakeTxn t) {
            return t.stateFor(level, part);
        }
    }

    private Probe lock(At at, FakeTxn t, Op op) {
        Probe p = new Probe();
        at.part().execute(t, at.st(t), new FakeOp(op, new VersionChain()), p);
        ds.drain();
        return p;
    }

    private void commit(At at, FakeTxn t) {
        at.part().finish(t, at.st(t), true, null);
        t.finish(ds, true);
        ds.drain();
    }

    @Test
    void sameGroupLocksDoNotConflictAtTheParent() {
        FakeTxn t1 = new FakeTxn(1, leafIdA, 1);
        FakeTxn t2 = new FakeTxn(2, leafIdA, 2);
        FakeTxn t3 = new FakeTxn(3, leafIdB, 3);
        assertTrue(lock(root, t1, Op.write(k, table.row(1L))).proceeded);
        assertTrue(lock(root, t2, Op.write(k, table.row(2L))).proceeded, "same child group: X/X compatible at root");
        Probe p3 = lock(root, t3, Op.read(k));
        assertTrue(p3.parked(), "other group: S waits for X");
        commit(root, t1);
        assertTrue(p3.parked(), "t2 (same group as t1) still holds X");
        commit(root, t2);
        assertTrue(p3.proceeded, "granted once both holders released");
    }

    @Test
    void atALeafDistinctTransactionsConflict() {
        FakeTxn t1 = new FakeTxn(1, leafIdA, 1);
        FakeTxn t2 = new FakeTxn(2, leafIdA, 2);
        assertTrue(lock(leafA, t1, Op.write(k, table.row(1L))).proceeded);
        Probe p2 = lock(leafA, t2, Op.write(k, table.row(2L)));
        assertTrue(p2.parked());
        commit(leafA, t1);
        assertTrue(p2.proceeded);
    }

    @Test
    void sharedLocksAreCompatibleAcrossGroupsAndQueueIsFair() {
        FakeTxn a = new FakeTxn(1, leafIdA, 1);
        FakeTxn b = new FakeTxn(2, leafIdB, 2);
        FakeTxn b2 = new FakeTxn(3, leafIdB, 3);
        FakeTxn a2 = new FakeTxn(4, leafIdA, 4);
        assertTrue(lock(root, a, Op.read(k)).proceeded);
        assertTrue(lock(root, b, Op.read(k)).proceeded, "S/S across groups");
        Probe x = lock(root, a2, Op.write(k, table.row(0L)));
        assertTrue(x.parked(), "X from group A waits for group B's S");
        Probe s = lock(root, b2, Op.read(k));
        assertTrue(s.proceeded, "group B already holds the lock: same-group S is not queued behind A's X");
        commit(root, b);
        assertTrue(x.parked());
        commit(root, b2);
        assertTrue(x.proceeded);
    }

    @Test
    void upgradeWaitsForOtherGroupReaders() {
        FakeTxn a = new FakeTxn(1, leafIdA, 1);
        FakeTxn b = new FakeTxn(2, leafIdB, 2);
        assertTrue(lock(root, a, Op.read(k)).proceeded);
        assertTrue(lock(root, b, Op.read(k)).proceeded);
        Probe up = lock(root, a, Op.readForUpdate(k));
        assertTrue(up.parked());
        commit(root, b);
        assertTrue(up.proceeded);
    }

    @Test
    void lockWaitTimesOut() {
        FakeTxn t1 = new FakeTxn(1, leafIdA, 1);
        FakeTxn t2 = new FakeTxn(2, leafIdB, 2);
        assertTrue(lock(root, t1, Op.write(k, table.row(1L))).proceeded);
        Probe p = lock(root, t2, Op.write(k, table.row(2L)));
        ds.advance(9_999);
        assertTrue(p.parked());
        ds.advance(1);
        assertNotNull(p.aborted);
        assertTrue(p.aborted.retryable());
        assertTrue(p.aborted.message().contains("lock wait timeout"), p.aborted.message());
        assertEquals(List.of("T2<-T1:10000"), ds.blockingEvents);
    }

    @Test
    void waitDieLetsOlderWaitAndKillsYounger() {
        CcTree wd = CcTree.build(TreeSpec.leaf("2pl", "A").option("deadlock", "wait-die"), "wd");
        At part = new At(plain(wd.root(), ds), 0);
        FakeTxn young = new FakeTxn(1, 0, 100);
        FakeTxn old = new FakeTxn(2, 0, 50);
        FakeTxn younger = new FakeTxn(3, 0, 200);
        assertTrue(lock(part, young, Op.write(k, table.row(1L))).proceeded);
        assertTrue(lock(part, old, Op.write(k, table.row(2L))).parked(), "older waits");
        Probe p = lock(part, younger, Op.read(k));
        assertNotNull(p.aborted, "younger dies");
        assertTrue(p.aborted.message().startsWith("wait-die"));
    }

    @Test
    void noWaitAbortsARequestThatCannotBeGrantedAtOnce() {
        CcTree nw = CcTree.build(TreeSpec.leaf("2pl", "A").option("deadlock", "no-wait"), "nw");
        At part = new At(plain(nw.root(), ds), 0);
        FakeTxn old = new FakeTxn(1, 0, 50);
        FakeTxn young = new FakeTxn(2, 0, 100);
        FakeTxn reader = new FakeTxn(3, 0, 10);
        FakeTxn reader2 = new FakeTxn(4, 0, 20);
        assertTrue(lock(part, young, Op.write(k, table.row(1L))).proceeded);
        Probe p = lock(part, old, Op.read(k));
        assertNotNull(p.aborted, "even an older requester aborts instead of waiting (unlike wait-die)");
        assertTrue(p.aborted.retryable());
        assertTrue(p.aborted.message().startsWith("no-wait: ") && p.aborted.message().contains(" conflicts with ")
                && p.aborted.message().endsWith(" on " + k + " at 2pl node 0"), p.aborted.message());
        assertEquals(0, part.st(old).held());
        ds.advance(1_000_000);
        assertTrue(ds.blockingEvents.isEmpty(), "nobody waited");
        commit(part, young);
        assertTrue(lock(part, reader, Op.read(k)).proceeded, "granted once the holder released");
        assertTrue(lock(part, reader2, Op.read(k)).proceeded, "S/S never conflicts");
        Probe up = lock(part, reader, Op.readForUpdate(k));
        assertNotNull(up.aborted, "an upgrade blocked by another reader aborts");
        assertEquals(1, part.st(reader).held(), "the aborted request leaves the held S lock to the abort's release");
    }

    @Test
    void noWaitAtAnInnerNodeAbortsOnlyOtherGroups() {
        CcTree nw = CcTree.build(TreeSpec.inner("2pl", TreeSpec.leaf("2pl", "A"), TreeSpec.leaf("2pl", "B"))
                .option("deadlock", "no-wait"), "nw");
        At part = new At(plain(nw.root(), ds), 0);
        FakeTxn a1 = new FakeTxn(1, leafIdA, 1);
        FakeTxn a2 = new FakeTxn(2, leafIdA, 2);
        FakeTxn b = new FakeTxn(3, leafIdB, 3);
        assertTrue(lock(part, a1, Op.write(k, table.row(1L))).proceeded);
        assertTrue(lock(part, a2, Op.write(k, table.row(2L))).proceeded, "same group: compatible, no abort");
        assertNotNull(lock(part, b, Op.read(k)).aborted, "another group conflicts: aborts at once");
    }

    /**
     * {@code deadlock: detect} (RP's default for step locks): the request that closes a cycle of waits aborts
     * at once — through holders (T1 holds k, T2 holds k2, each wants the other's) and through the FIFO queue (T3 is
     * queued for k behind T1 when T4, holding k3, queues for k behind T3; T3 then wants k3) — while a chain of waits
     * that closes no cycle just waits.
     */
    @Test
    void detectAbortsTheRequestThatClosesACycleOfWaits() {
        CcTree dt = CcTree.build(TreeSpec.leaf("2pl", "A").option("deadlock", "detect"), "dt");
        At part = new At(plain(dt.root(), ds), 0);
        Key k2 = Key.of(table, 2);
        Key k3 = Key.of(table, 3);
        FakeTxn t1 = new FakeTxn(1, 0, 1);
        FakeTxn t2 = new FakeTxn(2, 0, 2);
        FakeTxn t3 = new FakeTxn(3, 0, 3);
        FakeTxn t4 = new FakeTxn(4, 0, 4);
        assertTrue(lock(part, t1, Op.write(k, table.row(1L))).proceeded);
        assertTrue(lock(part, t2, Op.write(k2, table.row(2L))).proceeded);
        Probe w1 = lock(part, t1, Op.write(k2, table.row(1L)));
        assertTrue(!w1.proceeded && w1.aborted == null, "T1 waits for T2: no cycle yet");
        Probe w2 = lock(part, t2, Op.write(k, table.row(2L)));
        assertNotNull(w2.aborted, "T2 closes T2 -> T1 -> T2");
        assertTrue(w2.aborted.retryable() && w2.aborted.message().startsWith("deadlock: ")
                && w2.aborted.message().contains("at 2pl node 0"), w2.aborted.message());
        assertEquals(1, part.st(t2).held(), "the aborted request leaves the held lock to the abort's release");
        commit(part, t2);
        assertTrue(w1.proceeded, "T1 got k2 once T2 released it");

        assertTrue(lock(part, t4, Op.write(k3, table.row(4L))).proceeded);
        Probe q3 = lock(part, t3, Op.write(k, table.row(3L)));
        Probe q4 = lock(part, t4, Op.write(k, table.row(4L)));
        assertTrue(q3.aborted == null && q4.aborted == null, "T3 and T4 queue behind T1: a chain, no cycle");
        Probe c3 = lock(part, t3, Op.write(k3, table.row(3L)));
        assertNotNull(c3.aborted, "T3 waits for T4 (holds k3), T4 for T3 (queued before it): a cycle");
        assertTrue(q4.aborted == null && !q4.proceeded, "T4 still waits (for T1 and T3's queued request)");
    }

    @Test
    void deadlockOptionIsChecked() {
        TwoPhaseLocking m = new TwoPhaseLocking();
        for (String ok : List.of("timeout", "wait-die", "no-wait", "detect", "wound-wait")) {
            assertEquals(List.of(), m.checkOptions(CcTree.build(TreeSpec.leaf("2pl", "A").option("deadlock", ok), "ok")
                    .root()), ok);
        }
        assertEquals(List.of("option 'deadlock' must be 'timeout', 'wait-die', 'no-wait', 'detect' or 'wound-wait', not 'nowait'"),
                m.checkOptions(CcTree.build(TreeSpec.leaf("2pl", "A").option("deadlock", "nowait"), "bad").root()));
    }

    @Test
    void nexusLockReleaseOrder() {
        // t2 depends on t1 within group A (reported by the child, level 1): the root delays t2's commit (and so
        // the release of t2's root locks) until t1 committed.
        FakeTxn t1 = new FakeTxn(1, leafIdA, 1);
        FakeTxn t2 = new FakeTxn(2, leafIdA, 2);
        FakeTxn t3 = new FakeTxn(3, leafIdB, 3);
        assertTrue(lock(root, t2, Op.write(k, table.row(2L))).proceeded);
        Probe waiter = lock(root, t3, Op.read(k));
        t2.dependsOn(t1, 1);
        Probe v = new Probe();
        root.part().validate(t2, root.st(t2), v);
        ds.drain();
        assertTrue(v.parked(), "t2 must not commit before its in-group dependency t1");
        commit(root, t1);
        assertTrue(v.proceeded, "t1 committed: t2 may commit");
        assertTrue(waiter.parked(), "t3 gets t2's lock only when t2 commits");
        commit(root, t2);
        assertTrue(waiter.proceeded);
    }

    @Test
    void ownLevelAndLeafDependenciesAreNotAwaited() {
        FakeTxn t1 = new FakeTxn(1, leafIdA, 1);
        FakeTxn t2 = new FakeTxn(2, leafIdA, 2).dependsOn(t1, 0);
        Probe v = new Probe();
        root.part().validate(t2, root.st(t2), v);
        assertTrue(v.proceeded, "a dependency the root itself reported is for the root's parent to enforce");
        FakeTxn t3 = new FakeTxn(3, leafIdA, 3).dependsOn(t1, 1);
        Probe w = new Probe();
        leafA.part().validate(t3, leafA.st(t3), w);
        assertTrue(w.proceeded, "a leaf has no child dependencies to wait for");
    }

    @Test
    void readRuleKeepsTheChildsProposalUnlessAnotherGroupCommittedANewerVersion() {
        VersionChain chain = new VersionChain();
        Version v0 = Version.initial(table.row(0L));
        Version v1 = new Version(9, leafIdA, 0, table.row(1L), true);
        Version v2 = new Version(10, leafIdA, 0, table.row(2L), false);
        chain.append(v0);
        chain.append(v1);
        chain.append(v2);
        FakeOp read = new FakeOp(Op.read(k), chain);
        FakeTxn sameGroup = new FakeTxn(11, leafIdA, 1);
        FakeTxn otherGroup = new FakeTxn(12, leafIdB, 1);
        assertSame(v2, root.part().chooseRead(sameGroup, root.st(sameGroup), read, v2),
                "uncommitted value from its group: accepted");
        assertSame(v1, root.part().chooseRead(otherGroup, root.st(otherGroup), read, v2),
                "another group committed a newer version: that one");
        assertSame(v0, root.part().chooseRead(sameGroup, root.st(sameGroup), read, v0),
                "an older committed proposal stands when only the child's own group wrote since");
        assertSame(v1, root.part().chooseRead(otherGroup, root.st(otherGroup), read, v0),
                "...but not when another group did");
        assertSame(v1, root.part().chooseRead(sameGroup, root.st(sameGroup), read, null), "no proposal: latest committed");
        FakeTxn writer = new FakeTxn(10, leafIdA, 1);
        assertFalse(v1 == root.part().chooseRead(writer, root.st(writer), read, v2), "own write stays");
    }
}
