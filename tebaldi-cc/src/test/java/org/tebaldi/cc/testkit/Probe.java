package org.tebaldi.cc.testkit;

import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.txn.AbortReason;

/** A continuation that records what the part answered. */
public final class Probe implements Continuation {
    public boolean proceeded;
    public AbortReason aborted;

    @Override
    public void proceed() {
        if (proceeded || aborted != null) {
            throw new AssertionError("answered twice");
        }
        proceeded = true;
    }

    @Override
    public void abort(AbortReason reason) {
        if (proceeded || aborted != null) {
            throw new AssertionError("answered twice");
        }
        aborted = reason;
    }

    /** True if neither proceeded nor aborted yet (parked). */
    public boolean parked() {
        return !proceeded && aborted == null;
    }
}
