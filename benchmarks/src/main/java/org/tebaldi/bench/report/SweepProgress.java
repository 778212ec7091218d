package org.tebaldi.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress and estimated time left over a whole sweep, for the console. Each point takes its warm-up plus its
 * measured duration (known in advance) plus an overhead (loading the data, starting the cluster, verifying)
 * that is learnt: the mean overhead of the points finished so far, or, while the first point runs, the time it
 * has spent outside its measured run so far. The estimate for the running point counts down with its progress
 * ticks. Not thread-safe: used by the thread that runs the sweep.
 */
public final class SweepProgress {
    private static final int BAR = 20;
    private static final long SECOND = 1_000_000_000L;
    private final long[] planned;
    private final LongSupplier clock;
    private final long start;
    private int current = -1;
    private long currentStart;
    private long overheadSum;
    private int finished;

    /**
     * @param plannedMicros each point's warm-up plus duration, µs, in run order
     * @param nanoClock     a monotonic clock, ns ({@code System::nanoTime}); read now as the sweep's start
     */
    public SweepProgress(List<Long> plannedMicros, LongSupplier nanoClock) {
        this.planned = plannedMicros.stream().mapToLong(m -> m * 1000).toArray();
        this.clock = nanoClock;
        this.start = nanoClock.getAsLong();
    }

    /** Point {@code index} (0-based) starts now. */
    public void pointStarted(int index) {
        current = index;
        currentStart = clock.getAsLong();
    }

    /** The running point ended now (finished or failed); its overhead joins the mean. */
    public void pointFinished() {
        if (current < 0) {
            throw new IllegalStateException("no point is running");
        }
        long took = clock.getAsLong() - currentStart;
        overheadSum += Math.max(0, took - planned[current]);
        finished++;
        current = -1;
    }

    /** Time since the sweep started, ns. */
    public long elapsedNanos() {
        return clock.getAsLong() - start;
    }

    /**
     * Estimated time until the last point ends, ns.
     *
     * @param runSeconds seconds of the running point's warm-up and measurement done so far (its last progress
     *                   tick; 0 before its run starts); ignored between points
     */
    public long etaNanos(long runSeconds) {
        long now = clock.getAsLong();
        long next = current >= 0 ? current + 1 : finished;
        long overhead;
        long left = 0;
        if (current >= 0) {
            long elapsed = now - currentStart;
            long outside = Math.max(0, elapsed - Math.min(runSeconds * SECOND, planned[current]));
            overhead = finished > 0 ? overheadSum / finished : outside;
            left = Math.max(0, planned[current] + overhead - elapsed);
        } else {
            overhead = finished > 0 ? overheadSum / finished : 0;
        }
        for (long i = next; i < planned.length; i++) {
            left += planned[(int) i] + overhead;
        }
        return left;
    }

    /**
     * E.g. {@code [#####...............]  25% ETA 4m10s}: the share of the sweep's estimated total time already
     * spent, as a 20-character bar and a percentage, and the estimated time left ({@link #duration}).
     *
     * @param runSeconds as for {@link #etaNanos}
     */
    public String bar(long runSeconds) {
        long eta = etaNanos(runSeconds);
        long elapsed = elapsedNanos();
        double done = elapsed + eta == 0 ? 1 : (double) elapsed / (elapsed + eta);
        int filled = (int) Math.round(done * BAR);
        return "[" + "#".repeat(filled) + ".".repeat(BAR - filled) + "] " + String.format(Locale.ROOT, "%3d%%",
                Math.round(done * 100)) + " ETA " + duration(eta);
    }

    /**
     * A duration for people: {@code 38s}, {@code 4m10s}, {@code 1h02m} (seconds rounded up below an hour, minutes
     * rounded up above).
     */
    public static String duration(long nanos) {
        long s = (Math.max(0, nanos) + SECOND - 1) / SECOND;
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        long m = (s + 59) / 60;
        return String.format(Locale.ROOT, "%dh%02dm", m / 60, m % 60);
    }
}
