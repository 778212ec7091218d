package org.tebaldi.core.testkit;

/**
 * Test-only mechanism {@code unsafe}: regulates nothing (no locks, reads see the latest committed version). Tests
 * register it ({@code META-INF/services} of their test resources) to show that the simulation suites and the
 * checkers catch a broken concurrency control. The composability rules do not know it: random trees leave it out.
 */
public final class UnsafeMechanism extends TestMechanism {
    public UnsafeMechanism() {
        super("unsafe");
    }
}
