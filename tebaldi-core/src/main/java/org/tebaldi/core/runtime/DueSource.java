package org.tebaldi.core.runtime;

/**
 * Work that becomes due at deadlines and is run by the {@link ActorPool}'s workers between actor runs: the emulated
 * network ({@link DelayLine}) and actor timers ({@link DelayScheduler}). Implementations are thread-safe.
 */
interface DueSource {
    /** Nanoseconds until the earliest deadline (≤ 0: due now), or {@link Long#MAX_VALUE} if nothing waits. */
    long untilDue();

    /** Runs what is due now, unless another worker is doing so; returns how many items ran. */
    int runDue();

    /** Nanoseconds from now until {@code deadline} ({@link System#nanoTime} based; {@link Long#MAX_VALUE}: none). */
    static long until(long deadline) {
        return deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
    }
}
