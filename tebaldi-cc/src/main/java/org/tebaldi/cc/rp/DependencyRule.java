package org.tebaldi.cc.rp;

/**
 * Which conflicting accesses an RP node reports as a transaction's dependencies (option {@code dependencies}).
 * {@link #DIRECT}, the default, is the dissertation's (§4.3: a dependency set lists "the transactions in its group on
 * which T directly depends"; §4.4.2); {@link #ALL} is a stricter variant kept for comparison.
 */
enum DependencyRule {
    /**
     * The direct dependencies: for a read, the writer of the last step-committed version of the key; for a write,
     * that writer and the step-committed readers since. A predecessor's abort hands its predecessors on.
     */
    DIRECT,
    /**
     * Every uncommitted, step-committed conflicting access of the key by another group — the transitive closure
     * along the key; its size grows with the transactions in flight on a hot row.
     */
    ALL;

    static DependencyRule parse(String s) {
        return switch (s) {
            case "direct" -> DIRECT;
            case "all" -> ALL;
            default -> throw new IllegalArgumentException("option 'dependencies' must be direct or all, not '" + s + "'");
        };
    }
}
