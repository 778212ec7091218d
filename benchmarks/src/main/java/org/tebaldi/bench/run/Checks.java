package org.tebaldi.bench.run;

import org.tebaldi.bench.workload.ConsistencyResult;

/**
 * Outcome of {@code verify: true} (docs/experiments.md, "summary.json", {@code checks}); null fields mean "not checked".
 *
 * @param serializable whether the merged history is serializable (Adya DSG checker)
 * @param report       the checker's summary, or null
 * @param consistency  the workload's consistency check on the final state, or null
 */
public record Checks(Boolean serializable, String report, ConsistencyResult consistency) {
    /** Nothing was checked. */
    public static Checks notChecked() {
        return new Checks(null, null, null);
    }

    /** Whether the consistency check passed; null if not checked. */
    public Boolean consistent() {
        return consistency == null ? null : consistency.consistent();
    }

    /** True unless a check ran and failed. */
    public boolean passed() {
        return !Boolean.FALSE.equals(serializable) && !Boolean.FALSE.equals(consistent());
    }
}
