package org.tebaldi.cc.tictoc;

import org.tebaldi.core.cc.CcReport;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcTxn;

/**
 * TC part of TicToc: the commit timestamp is the largest lower bound the data servers reported during execution —
 * the {@code wts} of every version read and {@code rts + 1} of every version a write follows (TicToc §3.2) — fixed
 * when validation starts and shipped with the validation requests and the commit.
 */
final class TicTocTcPart implements TcPart<TicTocTcPart.Ts> {
    /** A transaction's lower bound on its commit timestamp, and whether it is fixed (validation started). */
    static final class Ts {
        long bound;
        boolean fixed;
    }

    @Override
    public Ts newState(TcTxn t) {
        return new Ts();
    }

    @Override
    public void onReport(TcTxn t, Ts st, CcReport report) {
        if (report instanceof TicTocMessages.Bound b && !st.fixed) {
            st.bound = Math.max(st.bound, b.ts());
        }
    }

    @Override
    public void beforeValidation(TcTxn t, Ts st, Continuation k) {
        st.fixed = true;
        k.proceed();
    }

    @Override
    public Object meta(TcTxn t, Ts st) {
        return st.fixed ? new TicTocMessages.CommitTs(st.bound) : null;
    }

    @Override
    public Object commitMeta(TcTxn t, Ts st) {
        return new TicTocMessages.CommitTs(st.bound);
    }
}
