package org.tebaldi.server.sim;

import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.tree.CcNode;

/**
 * Test-only mechanism {@code unsafe}: regulates nothing (no locks, reads the latest committed version). Used to
 * show that the simulation suite and the checker catch a broken concurrency control.
 */
public final class UnsafeMechanism implements Mechanism {
    @Override
    public String name() {
        return "unsafe";
    }

    @Override
    public TcPart<Void> tcPart(CcNode node, TcServices services) {
        return new TcPart<>() {
        };
    }

    @Override
    public DsPart<Void> dsPart(CcNode node, DsServices services) {
        return new DsPart<>() {
        };
    }
}
