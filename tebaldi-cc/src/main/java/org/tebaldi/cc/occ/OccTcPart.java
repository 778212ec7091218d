package org.tebaldi.cc.occ;

import java.util.BitSet;
import org.tebaldi.core.cc.CcReport;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.cc.TimedWait;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.cc.ts.TimestampSource;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Op;

/**
 * TC part of Silo-style OCC (COCO §5.1, PT-OCC; Silo §4.4). It notes which data servers the transaction wrote at.
 * Before a validation that involves more than one data server, it locks the write sets in a round of its own and
 * waits for every server's answer (a refusal or a timeout aborts): every write lock is then held before any read
 * is validated at any server, which Silo's serializability argument needs (with one server the DS part locks and
 * validates in one step). After every server voted yes it takes the commit TID ({@link Tid}: above every TID read
 * or overwritten, above its own last one, in its current epoch — or, with {@code timestamps: dst}, the hybrid clock's
 * next timestamp above the same bound), which travels with the commit.
 */
final class OccTcPart implements TcPart<OccTcPart.Txn> {
    /** A transaction's write participants, the largest TID its servers reported, its TID, its lock round. */
    static final class Txn {
        final BitSet writeServers = new BitSet();
        long maxSeen;
        long tid;
        Round round;
    }

    /** A lock round in flight: the parked validation, the answers still missing, its timeout. */
    private static final class Round {
        final Continuation k;
        int missing;
        TimedWait wait;

        Round(Continuation k, int missing) {
            this.k = k;
            this.missing = missing;
        }
    }

    private CcNode node;
    private final TcServices services;
    private final int level;
    private final long epochMicros;
    /** DST's hybrid-clock TIDs ({@code timestamps: dst}); null for Silo's epoch TIDs ({@code gts}). */
    private final TimestampSource tids;
    private long lastTid;

    /**
     * @param epochMicros epoch length, µs (&gt; 0): TIDs of a coordinator start at its clock divided by this
     * @param tids        the DST source of TIDs, or null for epoch TIDs
     */
    OccTcPart(CcNode node, TcServices services, long epochMicros, TimestampSource tids) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.epochMicros = epochMicros;
        this.tids = tids;
    }

    @Override
    public Txn newState(TcTxn t) {
        return new Txn();
    }

    @Override
    public void beforeOp(TcTxn t, Txn st, Op op, Continuation k) {
        if (op.kind().writes()) {
            st.writeServers.set(services.partitionOf(op.key()));
        }
        k.proceed();
    }

    /**
     * The lock round, when the validation involves several data servers and the transaction wrote: one
     * {@link OccMessages.Lock} per server it wrote at; proceeds once all locked, aborts on the first refusal or
     * after the cross-mechanism wait timeout (a lost message).
     */
    @Override
    public void beforeValidation(TcTxn t, Txn st, Continuation k) {
        if (t.participants().length <= 1 || st.writeServers.isEmpty()) {
            k.proceed();
            return;
        }
        Round r = new Round(k, st.writeServers.cardinality());
        st.round = r;
        long timeout = services.waitTimeoutMicros();
        r.wait = services.awaitOrTimeout(timeout, () -> {
            st.round = null;
            k.abort(AbortReason.conflict("occ: the lock round timed out after " + timeout / 1000 + " ms at occ node "
                    + node.id()));
        });
        for (int ds = st.writeServers.nextSetBit(0); ds >= 0; ds = st.writeServers.nextSetBit(ds + 1)) {
            services.send(NodeId.ds(ds), node.id(), new OccMessages.Lock(t.id()));
        }
    }

    @Override
    public void onReport(TcTxn t, Txn st, CcReport report) {
        if (report instanceof OccMessages.MaxTid m) {
            st.maxSeen = Math.max(st.maxSeen, m.tid());
        }
    }

    /** Every server voted yes: the commit TID by Silo's rules. */
    @Override
    public void validate(TcTxn t, Txn st, Continuation k) {
        if (tids != null) {
            // DST: rules (a) and (b) as the lower bound, the hybrid clock in place of rule (c)'s epoch
            tids.observe(st.maxSeen);
            tids.commitTs(Math.max(st.maxSeen, lastTid) + 1, tid -> {
                st.tid = tid;
                lastTid = tid;
                k.proceed();
            });
            return;
        }
        st.tid = Tid.next(services.nowMicros() / epochMicros, st.maxSeen, lastTid);
        lastTid = st.tid;
        k.proceed();
    }

    @Override
    public Object commitMeta(TcTxn t, Txn st) {
        return new OccMessages.CommitTid(st.tid);
    }

    /** Ended (e.g. aborted by a participant's failure) during its lock round: the round ends with it. */
    @Override
    public void finish(TcTxn t, Txn st, boolean committed) {
        Round r = st.round;
        st.round = null;
        if (r != null && r.wait.complete()) {
            r.k.abort(AbortReason.conflict("occ: ended during its lock round"));
        }
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        if (!(payload instanceof OccMessages.Locked l)) {
            return;
        }
        TcTxn t = services.txn(l.txnId());
        Txn st = t == null ? null : t.state(level, Txn.class);
        Round r = st == null ? null : st.round;
        if (r == null) {
            return; // the round ended already (refused elsewhere, timed out, or the transaction ended)
        }
        if (l.failure() != null) {
            st.round = null;
            if (r.wait.complete()) {
                r.k.abort(AbortReason.conflict(l.failure()));
            }
        } else if (--r.missing == 0) {
            st.round = null;
            if (r.wait.complete()) {
                r.k.proceed();
            }
        }
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }
}
