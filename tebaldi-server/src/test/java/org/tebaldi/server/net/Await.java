package org.tebaldi.server.net;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Polls a condition every 5 ms until it holds; fails the test after a timeout (the transport tests' wait). */
final class Await {
    private Await() {
    }

    /**
     * Waits until {@code c} holds.
     *
     * @param seconds how long to wait before failing
     * @throws AssertionError naming {@code what} on timeout
     */
    static void until(BooleanSupplier c, String what, long seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!c.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "timed out waiting for " + what);
            Thread.sleep(5);
        }
    }
}
