package org.tebaldi.bench.workload;

import java.util.List;

/**
 * Outcome of a workload's consistency check ({@link Workload#check}).
 *
 * @param consistent true if every condition holds
 * @param summary    one line for the console, e.g. {@code total balance 10000 over 100 accounts}
 * @param problems   each violated condition, one line each (empty when consistent)
 */
public record ConsistencyResult(boolean consistent, String summary, List<String> problems) {
    /** Copies the problems. */
    public ConsistencyResult {
        problems = List.copyOf(problems);
    }

    /** Every condition holds. */
    public static ConsistencyResult ok(String summary) {
        return new ConsistencyResult(true, summary, List.of());
    }

    /** Some conditions are violated. @throws IllegalArgumentException if {@code problems} is empty */
    public static ConsistencyResult violated(String summary, List<String> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a violated check names its problems");
        }
        return new ConsistencyResult(false, summary, problems);
    }
}
