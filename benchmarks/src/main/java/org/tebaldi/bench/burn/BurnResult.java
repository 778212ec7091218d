package org.tebaldi.bench.burn;

import java.util.Map;

/**
 * The result of one burn run.
 *
 * @param scenario      what ran
 * @param verdict       pass, or the kind of the first failed check
 * @param message       what failed (empty on a pass)
 * @param committed     committed transaction attempts (client acknowledgements, all cluster lifetimes)
 * @param aborted       aborted (retried) attempts
 * @param historyTxns   transactions in the checked history
 * @param virtualMicros virtual time of the run, µs (all cluster lifetimes)
 * @param wallMillis    wall-clock time of the run, ms
 */
public record BurnResult(Scenario scenario, Verdict verdict, String message, int committed, int aborted,
                         int historyTxns, long virtualMicros, long wallMillis) {
    /** Whether every check passed. */
    public boolean passed() {
        return verdict == Verdict.PASS;
    }

    /** Faults of the scenario per kind. */
    public Map<FaultKind, Integer> faults() {
        return scenario.faultCounts();
    }

    /** One line: seed, verdict, counts. */
    public String describe() {
        return "seed " + scenario.seed() + " " + verdict.label() + " (" + scenario.workload() + ", "
                + scenario.faults().size() + " faults, " + committed + " committed, " + aborted + " aborted, "
                + virtualMicros / 1000 + " virtual ms, " + wallMillis + " ms)" + (message.isEmpty() ? "" : ": " + message);
    }
}
