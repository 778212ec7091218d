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
 *   <li>{@link #DELAY_SPIKE}: from {@code atMicros} for {@code durationMicros} every message sent on the links
 *       {@code targets} name — {@code []} every link, {@code [from]} every link out of {@code from}, {@code [from,
 *       to]} one direction, {@code "*"} any node — takes {@code parameter} µs longer
 *       ({@code SimFaults#delaySpike}).</li>
 *   <li>{@link #LINK_DROP}: the connection between the two {@code targets} is down from {@code atMicros} for
 *       {@code durationMicros}: messages in flight and sent meanwhile are lost ({@code SimFaults#dropLink};
 *       the transaction timeouts recover).</li>
 *   <li>{@link #CLOCK_SKEW}: from {@code atMicros} the clock of the one target is off by {@code parameter} µs and
 *       drifts by {@link Fault#driftPpm()} ({@code SimFaults#clockSkew}); instantaneous, never heals.</li>
 *   <li>{@link #NODE_PAUSE}: the one target (any node, services too) handles nothing from {@code atMicros} for
 *       {@code durationMicros} ({@code SimFaults#pause}).</li>
 *   <li>{@link #COORDINATOR_CRASH}: coordinator {@code targets[0]} (e.g. {@code tc1}) crashes at {@code atMicros};
 *       the others learn it {@code durationMicros} later and its clients fail over ({@code
 *       Cluster#crashCoordinator}). Needs ≥ 2 coordinators; never together with a link drop touching that
 *       coordinator (two-phase commit without a coordinator log: docs/cluster.md "Failures").</li>
 *   <li>{@link #SERVICE_LOSS}: singleton service {@code targets[0]} ({@code ts}, {@code batch} …, one the cluster
 *       runs) crashes at {@code atMicros}; the failure notice comes {@code durationMicros} later and a new term
 *       takes over {@code parameter} µs after the crash ({@code Cluster#failService}).</li>
 *   <li>{@link #DS_RESTART}: data server {@code targets[0]} crashes at {@code atMicros} (its log keeps a random
 *       prefix of its unsynced writes), the others learn it {@code durationMicros} later, and it restarts from its
 *       log {@code parameter} µs after the crash while the rest runs on ({@code Cluster#restartDataServer}). Needs
 *       {@link Scenario#durable()}.</li>
 * </ul>
 */
public enum FaultKind {
    NET_JITTER,
    NODE_PAUSES,
    CLUSTER_CRASH,
    RECONFIG,
    DELAY_SPIKE,
    LINK_DROP,
    CLOCK_SKEW,
    NODE_PAUSE,
    COORDINATOR_CRASH,
    SERVICE_LOSS,
    DS_RESTART;

    /** Whether the kind happens at a time and heals (a "commits again after the heal" check follows it). */
    public boolean timed() {
        return ordinal() >= DELAY_SPIKE.ordinal();
    }

    /** The kind's name in files and on the console, e.g. {@code net-jitter}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
