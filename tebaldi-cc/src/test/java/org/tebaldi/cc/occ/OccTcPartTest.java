package org.tebaldi.cc.occ;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.cc.testkit.FakeDs;
import org.tebaldi.cc.testkit.Probe;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;

/**
 * OCC's coordinator half: the lock round before a validation at several data servers (every write set locked
 * before any read is validated), its refusals and timeout, and the commit TID by Silo's three rules.
 */
class OccTcPartTest {
    private final TableSchema table = new Catalog().add("t", 1, 0, false, Catalog.longCol("v"));
    private final Tc tc = new Tc();
    /** Epoch of 1 ms. */
    private final OccTcPart part = new OccTcPart(CcTree.build(TreeSpec.leaf("occ", "A"), "occ").root(), tc, 1_000, null);

    /** Key {@code k} lives at data server {@code k % 2}. */
    private Key key(long k) {
        return Key.of(table, k);
    }

    private Probe beforeValidation(Txn t) {
        Probe p = new Probe();
        part.beforeValidation(t, t.st, p);
        tc.ds.drain();
        return p;
    }

    private Txn txn(long id, long... written) {
        Txn t = new Txn(id);
        tc.txns.put(id, t);
        for (long k : written) {
            part.beforeOp(t, t.st, Op.write(key(k), table.row(1L)), new Probe());
            t.touch((int) (k % 2));
        }
        return t;
    }

    @Test
    void oneParticipantValidatesWithoutALockRound() {
        Txn t = txn(1, 2, 4);
        assertTrue(beforeValidation(t).proceeded);
        assertTrue(tc.sent.isEmpty(), "the data server locks and validates in one step");
    }

    @Test
    void aReadOnlyTransactionNeedsNoLockRound() {
        Txn t = txn(1);
        t.touch(0);
        t.touch(1);
        assertTrue(beforeValidation(t).proceeded);
        assertTrue(tc.sent.isEmpty());
    }

    @Test
    void severalParticipantsLockTheWriteSetsFirst() {
        Txn t = txn(1, 2, 3);
        t.touch(0);
        Probe p = beforeValidation(t);
        assertTrue(p.parked(), "validation waits for the lock round");
        assertEquals(List.of("ds0:Lock[txnId=1]", "ds1:Lock[txnId=1]"), tc.sent);
        part.onMessage(NodeId.ds(0), new OccMessages.Locked(1, null));
        assertTrue(p.parked());
        part.onMessage(NodeId.ds(1), new OccMessages.Locked(1, null));
        assertTrue(p.proceeded, "every write set locked: the reads may be validated");
        tc.ds.advance(1_000_000);
    }

    @Test
    void onlyTheServersWrittenAtAreAskedToLock() {
        Txn t = txn(1, 3);
        t.touch(0); // read there
        Probe p = beforeValidation(t);
        assertEquals(List.of("ds1:Lock[txnId=1]"), tc.sent);
        part.onMessage(NodeId.ds(1), new OccMessages.Locked(1, null));
        assertTrue(p.proceeded);
    }

    @Test
    void aRefusalAbortsAndLaterAnswersAreIgnored() {
        Txn t = txn(1, 2, 3);
        Probe p = beforeValidation(t);
        part.onMessage(NodeId.ds(1), new OccMessages.Locked(1, "occ: write set: t0[3] is locked by T0.9"));
        assertNotNull(p.aborted);
        assertEquals("occ: write set: t0[3] is locked by T0.9", p.aborted.message());
        assertTrue(p.aborted.retryable());
        part.onMessage(NodeId.ds(0), new OccMessages.Locked(1, null)); // the Probe fails if answered twice
        part.finish(t, t.st, false);
        tc.ds.advance(1_000_000);
    }

    @Test
    void aLostAnswerTimesOut() {
        Txn t = txn(1, 2, 3);
        Probe p = beforeValidation(t);
        part.onMessage(NodeId.ds(0), new OccMessages.Locked(1, null));
        tc.ds.advance(tc.waitTimeoutMicros() - 1);
        assertTrue(p.parked());
        tc.ds.advance(1);
        assertNotNull(p.aborted);
        assertTrue(p.aborted.message().startsWith("occ: the lock round timed out after 200 ms"), p.aborted.message());
        part.onMessage(NodeId.ds(1), new OccMessages.Locked(1, null));
    }

    @Test
    void endingDuringTheLockRoundEndsTheRound() {
        Txn t = txn(1, 2, 3);
        Probe p = beforeValidation(t);
        part.finish(t, t.st, false);
        assertNotNull(p.aborted, "the parked validation is answered once");
        part.onMessage(NodeId.ds(0), new OccMessages.Locked(1, null));
        tc.ds.advance(1_000_000);
    }

    @Test
    void commitTidFollowsSilosRules() {
        Txn a = txn(1, 2);
        Probe v = new Probe();
        tc.ds.advance(5_500); // epoch 5
        part.validate(a, a.st, v);
        assertTrue(v.proceeded);
        assertEquals(new OccMessages.CommitTid(Tid.first(5)), part.commitMeta(a, a.st), "(c): in the current epoch");
        Txn b = txn(2, 2);
        part.validate(b, b.st, new Probe());
        assertEquals(new OccMessages.CommitTid(Tid.first(5) + 1), part.commitMeta(b, b.st),
                "(b): above the coordinator's last TID");
        Txn c = txn(3, 2);
        part.onReport(c, c.st, new OccMessages.MaxTid(Tid.first(9) + 4));
        part.onReport(c, c.st, new OccMessages.MaxTid(Tid.first(2)));
        part.validate(c, c.st, new Probe());
        assertEquals(new OccMessages.CommitTid(Tid.first(9) + 5), part.commitMeta(c, c.st),
                "(a): above every TID read or overwritten, even one of a later epoch (another coordinator's clock)");
        tc.ds.advance(10_000); // epoch 15
        Txn d = txn(4, 2);
        part.validate(d, d.st, new Probe());
        assertEquals(new OccMessages.CommitTid(Tid.first(15)), part.commitMeta(d, d.st));
    }

    @Test
    void tidLayout() {
        assertEquals(7, Tid.epoch(Tid.first(7) + 123));
        assertEquals("7.123", Tid.format(Tid.first(7) + 123));
        assertEquals(Tid.first(3), Tid.next(3, 0, 0));
        assertEquals(Tid.first(3) + 10, Tid.next(3, Tid.first(3) + 9, Tid.first(3) + 2));
        assertEquals(Tid.first(4) + 1, Tid.next(3, Tid.first(4), 0));
    }

    /** A coordinator's transaction with the OCC part's state and the data servers it touched. */
    private final class Txn implements TcTxn {
        final long id;
        final OccTcPart.Txn st = part.newState(this);
        final List<Integer> participants = new ArrayList<>();

        Txn(long id) {
            this.id = id;
        }

        void touch(int ds) {
            if (!participants.contains(ds)) {
                participants.add(ds);
            }
        }

        @Override
        public long id() {
            return id;
        }

        @Override
        public int typeId() {
            return 0;
        }

        @Override
        public int leaf() {
            return 0;
        }

        @Override
        public long instance() {
            return 0;
        }

        @Override
        public long priority() {
            return id;
        }

        @Override
        public <S> S state(int level, Class<S> type) {
            return level == 0 && type.isInstance(st) ? type.cast(st) : null;
        }

        @Override
        public Inputs inputs() {
            return Inputs.NONE;
        }

        @Override
        public List<TxnDep> dependencies() {
            return List.of();
        }

        @Override
        public int[] participants() {
            return participants.stream().sorted().mapToInt(Integer::intValue).toArray();
        }
    }

    /** Coordinator services over a hand-driven clock; keys live at data server key % 2; sends are recorded. */
    private static final class Tc implements TcServices {
        final FakeDs ds = new FakeDs();
        final Map<Long, TcTxn> txns = new HashMap<>();
        final List<String> sent = new ArrayList<>();

        @Override
        public int tcIndex() {
            return 0;
        }

        @Override
        public NodeId coordinatorOf(long txnId) {
            return NodeId.tc(0);
        }

        @Override
        public TcTxn txn(long id) {
            return txns.get(id);
        }

        @Override
        public int partitionOf(Key key) {
            return (int) (key.part(0) % 2);
        }

        @Override
        public org.tebaldi.core.db.Database database() {
            return null;
        }

        @Override
        public NodeId self() {
            return NodeId.tc(0);
        }

        @Override
        public long nowMicros() {
            return ds.nowMicros();
        }

        @Override
        public long newRequestId() {
            return ds.newRequestId();
        }

        @Override
        public Cancellable schedule(long delayMicros, Runnable task) {
            return ds.schedule(delayMicros, task);
        }

        @Override
        public void send(NodeId to, int ccNode, Object payload) {
            sent.add(to + ":" + payload);
        }

        @Override
        public long waitTimeoutMicros() {
            return ds.waitTimeoutMicros();
        }

        @Override
        public BlockingSink blocking() {
            return null;
        }

        @Override
        public void later(Runnable task) {
            ds.later(task);
        }
    }
}
