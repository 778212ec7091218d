package org.tebaldi.bench.burn;

import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.testkit.TestMechanism;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;

/**
 * Test-only mechanism {@code stall}: from 1 virtual s on, its TC part aborts every transaction at its start (a
 * cluster that stops committing), so the burn's progress check must report a liveness failure.
 */
public final class StallMechanism extends TestMechanism {
    public StallMechanism() {
        super("stall");
    }

    @Override
    public TcPart<?> tcPart(CcNode node, TcServices services) {
        return new TcPart<Void>() {
            @Override
            public void start(TcTxn t, Void st, Continuation k) {
                if (services.nowMicros() < 1_000_000) {
                    k.proceed();
                } else {
                    k.abort(AbortReason.conflict("stall: no commit after 1 s"));
                }
            }
        };
    }
}
