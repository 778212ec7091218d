package org.tebaldi.bench.tpcc;

import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.tree.CcNode;

/**
 * Test-only mechanism {@code unsafe}: regulates nothing (no locks, reads see the latest committed version), to
 * show that the TPC-C simulation's checks catch a broken concurrency control.
 */
public final class UnsafeMechanism implements Mechanism {
    @Override
    public String name() {
        return "unsafe";
    }

    @Override
    public TcPart tcPart(CcNode node, TcServices services) {
        return new TcPart() {
        };
    }

    @Override
    public DsPart dsPart(CcNode node, DsServices services) {
        return new DsPart() {
        };
    }
}
