package org.tebaldi.bench.burn;

/**
 * The outcome of one burn run: passed, or the kind of check that failed first. The shrinker keeps a smaller
 * scenario only if it fails with the same kind.
 */
public enum Verdict {
    /** Every check passed. */
    PASS,
    /** The recorded history is not serializable (a cycle, an aborted or intermediate read). */
    SERIALIZABILITY,
    /**
     * The black-box list-append checker ({@code ListAppendChecker}: version orders recovered from the lists the
     * clients read, final reads included) found an anomaly the engine-order check did not.
     */
    LIST_APPEND,
    /** A workload invariant failed (e.g. a committed bank audit saw another total, or the final total differs). */
    INVARIANT,
    /** A transaction whose durable notification was sent is missing after the crash and recovery. */
    DURABILITY,
    /**
     * Clients did not finish within the virtual time limit, the cluster did not commit again within the bound after
     * the last fault healed, recovery or a reconfiguration did not complete, or transactions were left live.
     */
    LIVENESS,
    /**
     * With {@code --streamed}: the streamed, bounded-memory history check held a transaction without an outcome once
     * the cluster was quiet, or its verdict differs from the batch check's ({@link StreamedHistory}).
     */
    STREAMED_CHECK,
    /** Node or workload code threw (a bug that surfaced as an exception). */
    ERROR;

    /** Lower-case name for files and the console. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** An exception and its causes in one line, for an {@link #ERROR} verdict's message. */
    static String describe(Throwable e) {
        StringBuilder b = new StringBuilder(e.toString());
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            b.append("; caused by ").append(c);
        }
        return b.toString();
    }
}
