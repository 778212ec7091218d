package org.tebaldi.bench.run;

import java.util.Map;
import java.util.TreeMap;
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
 * @param ccCounters the coordinators' CC counters ({@code TcPart.counters}, labelled by {@code LabelledCounters})
 *                   over the measured window, summed by name; null where they are not measured (process mode)
 * @param replication what replication measured; null without replication or where not measured (process mode)
 */
public record RunResult(Experiment experiment, DriverResult driver, Checks checks, int threads, long rows,
                        long loadMillis, SimulationInfo simulation, EpochStats epochs, Map<String, Long> ccCounters,
                        ReplicationStats replication) {
    /** Without replication stats. */
    public RunResult(Experiment experiment, DriverResult driver, Checks checks, int threads, long rows,
                     long loadMillis, SimulationInfo simulation, EpochStats epochs, Map<String, Long> ccCounters) {
        this(experiment, driver, checks, threads, rows, loadMillis, simulation, epochs, ccCounters, null);
    }

    /** A real-time run without epoch stats or CC counters. */
    public RunResult(Experiment experiment, DriverResult driver, Checks checks, int threads, long rows,
                     long loadMillis) {
        this(experiment, driver, checks, threads, rows, loadMillis, null, null, null);
    }

    /** With what a simulated run measured (no epoch stats, no CC counters). */
    public RunResult(Experiment experiment, DriverResult driver, Checks checks, int threads, long rows,
                     long loadMillis, SimulationInfo simulation) {
        this(experiment, driver, checks, threads, rows, loadMillis, simulation, null, null);
    }

    /** {@code end - start} per counter (counters missing at the start count from 0). */
    public static Map<String, Long> delta(Map<String, Long> start, Map<String, Long> end) {
        Map<String, Long> out = new TreeMap<>();
        end.forEach((k, v) -> out.put(k, v - start.getOrDefault(k, 0L)));
        return out;
    }
}
