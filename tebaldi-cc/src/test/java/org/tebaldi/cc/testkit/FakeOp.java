package org.tebaldi.cc.testkit;

import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.txn.Op;

/** An operation context over a given chain. */
public final class FakeOp implements OpContext {
    private final Op op;
    private final VersionChain chain;

    public FakeOp(Op op, VersionChain chain) {
        this.op = op;
        this.chain = chain;
    }

    @Override
    public Op op() {
        return op;
    }

    @Override
    public VersionChain chain() {
        return chain;
    }

    @Override
    public Version chosen() {
        return null;
    }

    @Override
    public Version written() {
        return null;
    }

    @Override
    public void dependOn(DsTxn other) {
    }

    @Override
    public void placeBefore(java.util.function.Predicate<Version> later) {
    }
}
