package org.tebaldi.bench.run;

import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.experiment.Experiment;

/**
 * Everything a finished run produced.
 *
 * @param experiment the experiment
 * @param driver     the measurements
 * @param checks     the verification outcome (fields null when not checked)
 * @param threads    executor threads actually used
 * @param rows       rows loaded
 * @param loadMillis load time, ms
 * @param simulation what a simulated run measured of its hardware and its wall time; null for a real run (whose
 *                   times are wall-clock times)
 * @param epochs     what epoch-based commit measured; null under two-phase commit (or process mode)
 * @param replication what replication measured; null without replication or where not measured (process mode)
 */
public record RunResult(Experiment experiment, DriverResult driver, Checks checks, int threads, long rows,
                        long loadMillis, SimulationInfo simulation, EpochStats epochs, ReplicationStats replication) {
    /** Without replication stats. */
    public RunResult(Experiment experiment, DriverResult driver, Checks checks, int threads, long rows,
                     long loadMillis, SimulationInfo simulation, EpochStats epochs) {
        this(experiment, driver, checks, threads, rows, loadMillis, simulation, epochs, null);
    }

    /** A real-time run. */
    public RunResult(Experiment experiment, DriverResult driver, Checks checks, int threads, long rows,
                     long loadMillis) {
        this(experiment, driver, checks, threads, rows, loadMillis, null);
    }

    /** With what a simulated run measured (no epoch stats). */
    public RunResult(Experiment experiment, DriverResult driver, Checks checks, int threads, long rows,
                     long loadMillis, SimulationInfo simulation) {
        this(experiment, driver, checks, threads, rows, loadMillis, simulation, null);
    }
}
