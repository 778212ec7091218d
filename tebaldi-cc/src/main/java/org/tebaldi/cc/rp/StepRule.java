package org.tebaldi.cc.rp;

/**
 * When an RP node counts a step as finished by a transaction (option {@code stepRule}). {@link #PAPER}, the default,
 * is the dissertation's (§4.4.2: "T2 can execute step i only once either T1 has terminated, or T1 is executing a
 * step larger than i"); {@link #STRICT} is a stricter variant kept for comparison.
 */
enum StepRule {
    /**
     * A transaction that enters step b has finished every step below b, the steps it skipped included; at the end of
     * its execution (validation starts) it has finished every step.
     */
    PAPER,
    /**
     * Moving from step a to step b finishes step a only: the steps it skipped count as held until it leaves b, and
     * its last step until it commits or aborts.
     */
    STRICT;

    static StepRule parse(String s) {
        return switch (s) {
            case "paper" -> PAPER;
            case "strict" -> STRICT;
            default -> throw new IllegalArgumentException("option 'stepRule' must be paper or strict, not '" + s + "'");
        };
    }
}
