package org.tebaldi.bench.cc;

import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.testkit.TestMechanism;
import org.tebaldi.core.tree.CcNode;

/** Test-only mechanism {@code crashing}: its data-server part throws on every operation (a node failure). */
public final class CrashingMechanism extends TestMechanism {
    public CrashingMechanism() {
        super("crashing");
    }

    @Override
    public DsPart<Void> dsPart(CcNode node, DsServices services) {
        return new DsPart<>() {
            @Override
            public void execute(DsTxn t, Void st, OpContext op, Continuation k) {
                throw new IllegalStateException("crashing mechanism at work");
            }
        };
    }
}
