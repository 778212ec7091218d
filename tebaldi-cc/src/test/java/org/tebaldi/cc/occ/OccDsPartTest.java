package org.tebaldi.cc.occ;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.cc.testkit.FakeTxn;
import org.tebaldi.cc.testkit.Probe;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * OCC's data-server half (Silo §4.4, COCO §5.1): reads never block and see only committed versions, validation
 * locks the write set without waiting and checks that every read is still current, commit stamps the TID; the
 * version order follows the lock order; below a parent, a writer reports the live readers it orders first.
 */
class OccDsPartTest {
    private static final int LEAF = 0;
    private final OccBench b = new OccBench(CcTree.build(TreeSpec.leaf("occ", "A"), "occ").root());

    @Test
    void readsSeeOnlyCommittedVersionsAndTheirOwnWrites() {
        b.load(1, 10);
        FakeTxn w = b.txn(1, LEAF);
        FakeTxn r = b.txn(2, LEAF);
        b.write(w, 1, 11);
        assertEquals(10L, b.read(r, 1).get(0), "another transaction's write is private until commit");
        assertEquals(11L, b.read(w, 1).get(0), "a transaction reads its own write");
        assertTrue(b.st(w).reads.isEmpty(), "a read of the own write is not validated");
        assertEquals(1, b.st(r).reads.size());
    }

    @Test
    void aReadSetChangedBeforeValidationAborts() {
        b.load(1, 10);
        FakeTxn t1 = b.txn(1, LEAF);
        FakeTxn t2 = b.txn(2, LEAF);
        b.read(t1, 1);
        b.write(t1, 2, 5);
        b.increment(t2, 1);
        assertTrue(b.validate(t2).proceeded);
        b.commit(t2, 7);
        Probe v = b.validate(t1);
        assertNotNull(v.aborted, "t1 read a version t2 overwrote and committed");
        assertTrue(v.aborted.retryable());
        assertTrue(v.aborted.message().startsWith("occ: read validation: " + b.key(1) + " changed (TID 0.0, now 0.7)"),
                v.aborted.message());
        b.abort(t1);
        assertEquals(0, b.part.lockedKeys(), "the aborted validator's write lock is released");
    }

    @Test
    void aReadOfAKeyLockedByAValidatedWriterAborts() {
        b.load(1, 10);
        FakeTxn reader = b.txn(1, LEAF);
        FakeTxn writer = b.txn(2, LEAF);
        b.read(reader, 1);
        b.write(writer, 1, 11);
        assertTrue(b.validate(writer).proceeded);
        Probe v = b.validate(reader);
        assertNotNull(v.aborted, "the record is locked: its TID may change any moment");
        assertTrue(v.aborted.message().contains(b.key(1) + " is locked by"), v.aborted.message());
    }

    @Test
    void writeWriteRaceAbortsTheSecondValidatorWithoutWaiting() {
        b.load(1, 10);
        FakeTxn t1 = b.txn(1, LEAF);
        FakeTxn t2 = b.txn(2, LEAF);
        b.write(t1, 1, 11);
        b.write(t2, 1, 12);
        assertTrue(b.validate(t1).proceeded);
        Probe v = b.validate(t2);
        assertNotNull(v.aborted, "no waiting: the held lock aborts the second writer");
        assertTrue(v.aborted.message().startsWith("occ: write set: " + b.key(1) + " is locked by"),
                v.aborted.message());
        assertEquals(1, b.part.lockedKeys());
        b.commit(t1, 3);
        assertEquals(0, b.part.lockedKeys());
    }

    @Test
    void blindWritesCommitInLockOrderWhateverOrderTheyWereWrittenIn() {
        b.load(1, 10);
        FakeTxn first = b.txn(1, LEAF);
        FakeTxn second = b.txn(2, LEAF);
        b.write(first, 1, 11);
        b.write(second, 1, 12);
        assertEquals("0c 1 2", b.order(1));
        assertTrue(b.validate(second).proceeded);
        b.commit(second, 5);
        assertTrue(b.validate(first).proceeded, "a blind write reads nothing, so nothing to invalidate");
        assertEquals("0c 2c 1", b.order(1), "the later-locked version moved behind the one committed meanwhile");
        assertEquals(List.of("0:MaxTid[tid=5]"), first.reports, "the overwritten record's TID is reported");
        b.commit(first, 6);
        assertEquals(11L, b.chain(b.key(1)).latestCommitted().value().get(0), "the last committer's value is current");
        assertEquals(6, b.chain(b.key(1)).latestCommitted().stamp(0), "commit stamps the TID");
    }

    @Test
    void readOnlyTransactionsLockNothingAndValidateTheirReads() {
        b.load(1, 10);
        b.load(2, 20);
        FakeTxn ro = b.txn(1, LEAF);
        FakeTxn w = b.txn(2, LEAF);
        b.read(ro, 1);
        b.read(ro, 2);
        assertTrue(b.validate(ro).proceeded);
        assertEquals(0, b.part.lockedKeys());
        b.increment(w, 1);
        assertTrue(b.validate(w).proceeded, "a read-only transaction's validated read does not hold writers back");
        assertTrue(w.dependencies().isEmpty(), "at the root nobody needs the order reported");
        b.commit(w, 1);
        b.commit(ro, 2);
    }

    @Test
    void readingAnAbsentRowIsValidatedToo() {
        FakeTxn r = b.txn(1, LEAF);
        FakeTxn w = b.txn(2, LEAF);
        assertNull(b.read(r, 9));
        b.write(w, 9, 1);
        assertTrue(b.validate(w).proceeded);
        b.commit(w, 4);
        Probe v = b.validate(r);
        assertNotNull(v.aborted, "the row was inserted after the read found it absent");
    }

    @Test
    void aReadModifyWriteIsValidatedAndOverwrittenTidsReported() {
        Version v0 = b.load(1, 10);
        v0.setStamp(0, 40);
        FakeTxn t = b.txn(1, LEAF);
        b.increment(t, 1);
        b.increment(t, 1);
        assertEquals(12L, b.read(t, 1).get(0), "the second increment read the first");
        assertEquals(1, b.st(t).reads.size(), "only the read of the committed version is validated");
        assertTrue(b.validate(t).proceeded);
        assertEquals(List.of("0:MaxTid[tid=40]"), t.reports);
    }

    @Test
    void theLockRoundLocksHereAndAnswersTheCoordinator() {
        b.load(1, 10);
        FakeTxn t1 = b.txn(1, LEAF);
        FakeTxn t2 = b.txn(2, LEAF);
        b.write(t1, 1, 11);
        b.write(t2, 1, 12);
        b.write(t2, 2, 12);
        b.part.onMessage(null, new OccMessages.Lock(1));
        assertEquals(new OccMessages.Locked(1, null), b.sent.get(0));
        b.part.onMessage(null, new OccMessages.Lock(2));
        OccMessages.Locked no = (OccMessages.Locked) b.sent.get(1);
        assertTrue(no.failure().startsWith("occ: write set: " + b.key(1) + " is locked by"), no.failure());
        assertEquals(1, b.part.lockedKeys(), "a refused lock round keeps nothing");
        assertTrue(b.validate(t1).proceeded, "validation after the lock round only checks the reads");
        b.abort(t2);
        b.part.onMessage(null, new OccMessages.Lock(2));
        assertTrue(((OccMessages.Locked) b.sent.get(2)).failure().contains("is not live"));
        b.part.onMessage(null, new OccMessages.Lock(77));
        assertTrue(((OccMessages.Locked) b.sent.get(3)).failure().contains("is not live"));
    }

    @Test
    void belowAParentAWriterReportsTheLiveValidatedReadersItOrdersFirst() {
        // 2pl{occ[A], 2pl[B]}: the occ leaf has id 1, depth 1
        CcTree tree = CcTree.build(TreeSpec.inner("2pl", TreeSpec.leaf("occ", "A"), TreeSpec.leaf("2pl", "B")), "t");
        OccBench p = new OccBench(tree.node(1));
        p.load(1, 10);
        FakeTxn reader = p.txn(1, 1);
        FakeTxn late = p.txn(2, 1);
        FakeTxn writer = p.txn(3, 1);
        p.read(reader, 1);
        p.read(late, 1);
        assertTrue(p.validate(reader).proceeded);
        p.increment(writer, 1);
        assertTrue(p.validate(writer).proceeded);
        assertEquals(List.of(new DsTxn.Dependency(reader, 1)), writer.dependencies(),
                "the reader passed validation before the write lock: OCC orders it first although it may commit later");
        assertNotNull(p.validate(late).aborted, "a reader validating after the lock aborts instead");
        p.commit(reader, 1);
        FakeTxn next = p.txn(4, 1);
        p.abort(writer);
        p.increment(next, 1);
        assertTrue(p.validate(next).proceeded);
        assertTrue(next.dependencies().isEmpty(), "finished readers are forgotten");
    }
}
