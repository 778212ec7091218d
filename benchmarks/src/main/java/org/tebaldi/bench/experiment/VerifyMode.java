package org.tebaldi.bench.experiment;

import java.util.Locale;

/**
 * How a run checks its history (docs/architecture.md, "Verification"; experiment key {@code verify}). In every
 * mode but {@link #OFF} the nodes record their history in the engine (compact columns per node, handed over every
 * 100 ms) and the workload's consistency conditions are checked after the run; the modes differ in where and when
 * the serializability check runs, so that it does not eat the throughput it verifies:
 * <ul>
 *   <li>{@link #AFTER} ({@code verify: true}): the hand-overs are spilled to disk during the run and checked from
 *       the spill once the cluster stopped, with bounded memory;</li>
 *   <li>{@link #PROCESS}: spilled, and checked by a separate low-priority checker process that follows the spill
 *       while the run goes on and deletes what it checked (long runs: bounded disk);</li>
 *   <li>{@link #STREAMED}: checked in the run's own JVM on a background thread as the chunks arrive, nothing on
 *       disk (it costs the run CPU: up to half its throughput on 2 cores).</li>
 * </ul>
 * Process-mode and simulated clusters check after the run whatever the mode ({@link #AFTER} or {@link #OFF}).
 */
public enum VerifyMode {
    OFF, AFTER, PROCESS, STREAMED;

    /** Whether anything is verified. */
    public boolean on() {
        return this != OFF;
    }

    /** The name an experiment file uses: off, after, process, streamed. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the history goes to disk during the run (after, process). */
    public boolean spills() {
        return this == AFTER || this == PROCESS;
    }
}
