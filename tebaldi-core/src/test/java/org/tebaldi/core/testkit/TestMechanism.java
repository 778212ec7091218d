package org.tebaldi.core.testkit;

import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.tree.CcNode;

/**
 * Base of test-only mechanisms: a name, and parts that do nothing — a test overrides the one part it needs
 * (e.g. a DS part that throws, or one that proposes a partial view).
 */
public abstract class TestMechanism implements Mechanism {
    private final String name;

    protected TestMechanism(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public TcPart<?> tcPart(CcNode node, TcServices services) {
        return new TcPart<Void>() {
        };
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        return new DsPart<Void>() {
        };
    }
}
