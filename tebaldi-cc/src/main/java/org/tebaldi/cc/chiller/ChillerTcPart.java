package org.tebaldi.cc.chiller;

import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.txn.Op;

/**
 * TC part of Chiller's two-region execution (§3.3). The first operation on a hot record waits until every earlier
 * operation replied — the outer region so far holds its locks and has read — and picks that record's data server as
 * the inner host (step 2; the paper picks the server with the most hot records, which needs the whole transaction
 * in advance: here the first one wins, and hot records elsewhere are locked as outer records). The inner host then
 * travels with every request as {@link InnerHost}.
 */
final class ChillerTcPart implements TcPart<ChillerTcPart.Txn> {
    /** A transaction's inner host, -1 until its first hot operation. */
    static final class Txn {
        int innerHost = -1;
    }

    private final TcServices services;
    /** The placement's hot records (a capability of the coordinator, found once). */
    private final org.tebaldi.core.cc.HotRecords hot;

    ChillerTcPart(TcServices services) {
        this.services = services;
        this.hot = org.tebaldi.core.cc.HotRecords.of(services);
    }

    @Override
    public Txn newState(TcTxn t) {
        return new Txn();
    }

    /** The first hot operation is dispatched only after the outer region's earlier operations returned. */
    @Override
    public boolean needsPriorOps(TcTxn t, Txn st, Op op) {
        return st.innerHost < 0 && hot.hot(op.key());
    }

    @Override
    public void beforeOp(TcTxn t, Txn st, Op op, Continuation k) {
        if (st.innerHost < 0 && hot.hot(op.key())) {
            st.innerHost = services.partitionOf(op.key());
        }
        k.proceed();
    }

    @Override
    public Object meta(TcTxn t, Txn st) {
        return st.innerHost < 0 ? null : new InnerHost(st.innerHost);
    }
}
