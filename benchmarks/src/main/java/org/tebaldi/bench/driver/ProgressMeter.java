package org.tebaldi.bench.driver;

/**
 * Turns the run-long counters of {@link Metrics} into per-interval {@link ProgressTick}s, each with the run's phase
 * and length as {@link Metrics#window()} has them then; driver thread only.
 */
final class ProgressMeter {
    private final Metrics metrics;
    private boolean lengthKnown;
    private long lastAt;
    private long lastCommits;
    private long lastAttempts;
    private long lastAborts;

    /** @param lengthKnown false while a warm-up that ends when throughput settles runs ({@link #lengthKnown()}) */
    ProgressMeter(Metrics metrics, boolean lengthKnown) {
        this.metrics = metrics;
        this.lengthKnown = lengthKnown;
        this.lastAt = metrics.window().start();
    }

    /** Warm-up has ended: the run's length is known from now on. */
    void lengthKnown() {
        lengthKnown = true;
    }

    /** Length of the run in whole seconds, rounded up (as planned now). */
    long totalSeconds() {
        return (metrics.window().lengthNanos() + 999_999_999L) / 1_000_000_000L;
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
        String phase = at - metrics.window().measureStart() <= 0 ? "warmup" : "measure";
        ProgressTick t = new ProgressTick(second, lengthKnown ? totalSeconds() : 0, phase,
                (commits - lastCommits) / seconds, dAttempts == 0 ? 0 : (double) (aborts - lastAborts) / dAttempts);
        lastAt = at;
        lastCommits = commits;
        lastAttempts = attempts;
        lastAborts = aborts;
        return t;
    }
}
