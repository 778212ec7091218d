package org.tebaldi.bench.burn;

import org.tebaldi.core.testkit.TestMechanism;

/**
 * Test-only mechanism {@code nocc}: parts that do nothing, so transactions of its group are not regulated at all —
 * lost updates, a bank total that drifts, a non-serializable history. The shrinker test breaks scenarios with it.
 */
public final class NoCcMechanism extends TestMechanism {
    public NoCcMechanism() {
        super("nocc");
    }
}
