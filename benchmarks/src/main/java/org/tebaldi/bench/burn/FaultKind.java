package org.tebaldi.bench.burn;

/**
 * The kinds of fault a burn {@link Scenario} can inject ({@link Fault}), each applied by {@link BurnRun} with what the
 * simulated runtime and the cluster offer:
 * <ul>
 *   <li>{@link #NET_JITTER}: every message's one-way delay drawn from 20 µs to {@code parameter} µs for the whole
 *       run (instead of 20–300 µs), so messages on different links overtake each other much more (each link stays
 *       FIFO, like TCP). {@code atMicros} and {@code durationMicros} are 0 (the runtime's network model is fixed
 *       at construction).</li>
 *   <li>{@link #NODE_PAUSES}: random node pauses for the whole run (a pause of up to {@code parameter} µs every
 *       5 ms on average at a random node; a paused node handles nothing and its messages wait).</li>
 *   <li>{@link #CLUSTER_CRASH}: at {@code atMicros} the whole cluster loses power (each data server's log keeps a
 *       random prefix of its unsynced writes; all of them if {@code parameter} is 1), a new cluster recovers from
 *       the logs and the clients resume there. Needs {@link Scenario#durable()}.</li>
 *   <li>{@link #RECONFIG}: at {@code atMicros} the reconfiguration server swaps the running tree for
 *       {@link Fault#tree()} mid-run, by partial restart ({@code parameter} 0, dissertation §5.5.1) or online update
 *       ({@code parameter} 1, §5.5.2, which falls back to partial restart where no parent accepts a new child);
 *       {@code durationMicros} is the clean-up's force-abort timeout (0: wait for running transactions).</li>
 * </ul>
 * Kinds the fault primitives of the simulated runtime and cluster will add (delay spikes on a link, connection
 * drops, clock skew, single-node crash and restart, coordinator crash, service re-election) join here with one
 * case each in {@link FaultInjector}.
 */
public enum FaultKind {
    NET_JITTER,
    NODE_PAUSES,
    CLUSTER_CRASH,
    RECONFIG;

    /** The kind's name in files and on the console, e.g. {@code net-jitter}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
