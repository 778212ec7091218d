package org.tebaldi.bench.workload;

/**
 * Receives load progress from a {@link Workload}; the command prints it at most once a second. Call it as often
 * as convenient (it is cheap), e.g. every thousand rows.
 */
@FunctionalInterface
public interface Progress {
    /** A progress sink that ignores everything. */
    Progress NONE = (stage, done, total) -> {
    };

    /**
     * @param stage what is being loaded, e.g. {@code account} or {@code warehouse 3/10}
     * @param done  units done in this stage
     * @param total units in this stage (0 if unknown)
     */
    void report(String stage, long done, long total);
}
