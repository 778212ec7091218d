package org.tebaldi.bench.driver;

/** Turns the run-long counters of {@link Metrics} into per-interval {@link ProgressTick}s; driver thread only. */
final class ProgressMeter {
    private final Metrics metrics;
    private final RunWindow window;
    private final long totalSeconds;
    private long lastAt;
    private long lastCommits;
    private long lastAttempts;
    private long lastAborts;

    ProgressMeter(Metrics metrics, RunWindow window) {
        this.metrics = metrics;
        this.window = window;
        this.totalSeconds = (window.lengthNanos() + 999_999_999L) / 1_000_000_000L;
        this.lastAt = window.start();
    }

    /** Length of the run in whole seconds, rounded up. */
    long totalSeconds() {
        return totalSeconds;
    }

    /**
     * The tick for the interval from the previous tick to {@code at} (ns).
     *
     * @param second the second the tick is labelled with
     */
    ProgressTick tick(long second, long at) {
        long commits = metrics.allCommits();
        long aborts = metrics.allAborts();
        long attempts = commits + aborts + metrics.allErrors();
        double seconds = Math.max(1, at - lastAt) / 1e9;
        long dAttempts = attempts - lastAttempts;
        String phase = at - window.measureStart() <= 0 ? "warmup" : "measure";
        ProgressTick t = new ProgressTick(second, totalSeconds, phase, (commits - lastCommits) / seconds,
                dAttempts == 0 ? 0 : (double) (aborts - lastAborts) / dAttempts);
        lastAt = at;
        lastCommits = commits;
        lastAttempts = attempts;
        lastAborts = aborts;
        return t;
    }
}
