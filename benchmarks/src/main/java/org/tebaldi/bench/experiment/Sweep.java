package org.tebaldi.bench.experiment;

import java.util.List;

/**
 * What {@code scripts/tebaldi run} was asked to run: one or more experiment files, each expanded over its swept
 * fields ({@link SweepExpander}). Built by {@link ExperimentLoader#loadSweep}; every point is validated before
 * anything runs.
 *
 * @param keys   the swept keys over all points, in order: {@code experiment} first when several files are run,
 *               then each file's swept fields ({@code tree}, {@code clients}, {@code workload.warehouses}, ...);
 *               empty for a plain single experiment
 * @param points the points in run order (exactly one when {@code keys} is empty)
 */
public record Sweep(List<String> keys, List<SweepPoint> points) {
    /** Copies both lists. @throws IllegalArgumentException if there is no point, or several without keys */
    public Sweep {
        keys = List.copyOf(keys);
        points = List.copyOf(points);
        if (points.isEmpty() || (keys.isEmpty() && points.size() != 1)) {
            throw new IllegalArgumentException("a sweep needs points, and keys when it has several: " + keys + ", "
                    + points.size() + " point(s)");
        }
    }

    /**
     * Whether this is a sweep (some field was listed, or several files were given): it then writes one
     * sub-directory per point and {@code results.csv}; otherwise the single experiment runs as always.
     */
    public boolean isSweep() {
        return !keys.isEmpty();
    }

    /** The experiment of a non-sweep. @throws IllegalStateException for a sweep */
    public Experiment single() {
        if (isSweep()) {
            throw new IllegalStateException("a sweep of " + points.size() + " point(s) over " + keys);
        }
        return points.get(0).experiment();
    }

    /**
     * Warm-up plus measured time summed over all points, µs (what the runs take at least, loading aside: a warm-up
     * that ends when throughput settles counts with its minimum).
     */
    public long plannedMicros() {
        return points.stream().mapToLong(p -> p.experiment().warmup().minMicros() + p.experiment().durationMicros())
                .sum();
    }
}
