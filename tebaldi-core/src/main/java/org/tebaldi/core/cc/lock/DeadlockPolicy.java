package org.tebaldi.core.cc.lock;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a lock table breaks deadlocks (Bernstein, Hadzilacos and Goodman 1987, §3.4; the 2PL flavours of the
 * evaluations of Yu et al. VLDB 2018 and Lu et al. VLDB 2021): every parked request also times out after the table's lock-wait timeout.
 */
public enum DeadlockPolicy {
    /** A conflicting request waits in the FIFO queue; only the lock-wait timeout breaks deadlocks. */
    TIMEOUT("timeout"),
    /** A requester younger than a conflicting holder aborts at once; an older one waits (Rosenkrantz et al. 1978). */
    WAIT_DIE("wait-die"),
    /** A request that cannot be granted at once aborts its transaction: nobody waits, so no deadlock can form. */
    NO_WAIT("no-wait"),
    /**
     * A conflicting request waits in the FIFO queue unless its wait would close a cycle in the table's waits-for graph
     * (holders and earlier queued requests it conflicts with, {@link WaitsFor}); then its transaction aborts at once.
     * Cycles through other nodes or servers, or through waits of other kinds, are still broken by the timeout.
     */
    DETECT("detect");

    private final String option;

    DeadlockPolicy(String option) {
        this.option = option;
    }

    /** The value of a tree node's {@code deadlock} option naming this policy, e.g. {@code no-wait}. */
    public String option() {
        return option;
    }

    /** The policy named {@code value} ({@link #option()}), or null if none is. */
    public static DeadlockPolicy parse(String value) {
        for (DeadlockPolicy p : values()) {
            if (p.option.equals(value)) {
                return p;
            }
        }
        return null;
    }

    /** The option values, for messages: {@code 'timeout', 'wait-die', 'no-wait' or 'detect'}. */
    public static String choices() {
        String all = Arrays.stream(values()).map(p -> "'" + p.option + "'").collect(Collectors.joining(", "));
        int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " or " + all.substring(last + 2);
    }
}
