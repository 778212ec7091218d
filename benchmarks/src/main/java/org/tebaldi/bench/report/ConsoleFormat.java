package org.tebaldi.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.driver.ProgressTick;
import org.tebaldi.bench.driver.TypeStats;
import org.tebaldi.bench.driver.WindowCheck;

/**
 * The console lines of {@code scripts/tebaldi run}: the per-second progress line, the summary table and the lines
 * about the measured window.
 */
public final class ConsoleFormat {
    private ConsoleFormat() {
    }

    /**
     * E.g. {@code [12s/35s] measure   23,456 txn/s  abort 2.1%}; while a warm-up that ends when throughput settles
     * runs, the run's length is not known yet and the line has no total, e.g. {@code [ 7s] warmup ...}; a simulated
     * run's seconds are virtual and the line adds the wall time, e.g.
     * {@code [ 3s/12s virtual] measure 31,020 txn/s  abort 0.4%  (wall 41 s)}.
     */
    public static String progress(ProgressTick t) {
        String virtual = t.wallMillis() >= 0 ? " virtual" : "";
        String at = t.totalSeconds() > 0
                ? String.format(Locale.ROOT, "[%" + Long.toString(t.totalSeconds()).length() + "ds/%ds%s]",
                t.second(), t.totalSeconds(), virtual)
                : String.format(Locale.ROOT, "[%2ds%s]", t.second(), virtual);
        String line = String.format(Locale.ROOT, "%s %-7s %,9.0f txn/s  abort %.1f%%", at, t.phase(), t.txnPerSec(),
                t.abortRate() * 100);
        return t.wallMillis() >= 0 ? line + String.format(Locale.ROOT, "  (wall %.0f s)", t.wallMillis() / 1000.0)
                : line;
    }

    /**
     * The lines about the measured window ({@link WindowCheck}): how warm-up ended and whether the window was steady,
     * e.g. {@code window: warm-up 12.1 s (settled) | 20 one-second samples, mean 4,120 txn/s, slope +0.4%/s (p 0.31),
     * CV 9.8%: steady}; then, when it was not steady, a {@code WARNING:} line saying why and what to do.
     */
    public static List<String> window(WindowCheck w) {
        return window(w, 0);
    }

    /**
     * As {@link #window(WindowCheck)}, for a window in which the tree was swapped {@code reconfigurations} times
     * ({@code tebaldi tune}): throughput then changes by design, so an unsteady window gets a note, not a warning.
     */
    public static List<String> window(WindowCheck w, int reconfigurations) {
        String warmup = String.format(Locale.ROOT, "warm-up %.1f s (%s)", w.warmupMs() / 1000.0,
                w.settled() == null ? "fixed" : w.settled() ? "throughput settled"
                        : "throughput did not settle: ended at its max");
        List<String> lines = new ArrayList<>();
        if (w.steady() == null) {
            lines.add(String.format(Locale.ROOT, "window: %s | %d whole second(s) measured: too few to judge "
                    + "steadiness (%d needed)", warmup, w.samples(), WindowCheck.MIN_SAMPLES));
            return lines;
        }
        String stats = w.slopePctPerSec() == null ? String.format(Locale.ROOT, "mean %,.0f txn/s", w.meanTxnPerSec())
                : String.format(Locale.ROOT, "mean %,.0f txn/s, slope %+.1f%%/s (p %s), CV %.1f%%",
                w.meanTxnPerSec(), w.slopePctPerSec(), w.slopeP() == null ? "-" : WindowCheck.formatP(w.slopeP()),
                100 * w.cv());
        lines.add(String.format(Locale.ROOT, "window: %s | %d one-second samples, %s: %s", warmup, w.samples(), stats,
                w.steady() ? "steady" : "NOT steady")
                + (reconfigurations > 0 ? " (" + reconfigurations + " reconfiguration(s) in the window)" : ""));
        if (!w.steady() && reconfigurations == 0) {
            String advice;
            if (w.trend() && w.slopePctPerSec() > 0) {
                advice = "the result depends on when the window started: " + (w.settled() == null
                        ? "warm up longer, or until throughput settles (warmup: {min: 5s, max: 60s}), or measure longer"
                        : w.settled() ? "the settle test (the last 10 s) missed a slow rise: raise warmup.min "
                        + "(e.g. 30s) or measure longer"
                        : "throughput had not settled by warmup.max: raise it, or measure longer");
            } else if (w.trend()) {
                advice = "something slowed the run down as it went (a busier machine, a growing heap or table): "
                        + "repeat the run, or measure longer to see where it levels off";
            } else {
                advice = "one run's throughput is uncertain: repeat the run and compare medians (a busy machine "
                        + "and long GC pauses make seconds swing)";
            }
            lines.add("WARNING: the measured window was not steady: " + w.problem() + " — " + advice);
        }
        return lines;
    }

    /**
     * The summary table: one row per transaction type and a total row; columns committed, txn/s, abort rate,
     * errors, p50, p95 and p99 latency in ms.
     */
    public static List<String> table(DriverResult d) {
        List<String> lines = new ArrayList<>();
        int w = Math.max(5, d.types().keySet().stream().mapToInt(String::length).max().orElse(5));
        String head = "%-" + w + "s %12s %12s %7s %7s %9s %9s %9s";
        lines.add(String.format(Locale.ROOT, head, "type", "committed", "txn/s", "abort", "errors", "p50 ms",
                "p95 ms", "p99 ms"));
        for (Map.Entry<String, TypeStats> e : d.types().entrySet()) {
            lines.add(row(w, e.getKey(), e.getValue(), d.measuredMicros()));
        }
        lines.add(row(w, "total", d.total(), d.measuredMicros()));
        return lines;
    }

    private static String row(int w, String name, TypeStats s, long windowMicros) {
        return String.format(Locale.ROOT, "%-" + w + "s %,12d %,12.1f %6.1f%% %,7d %9s %9s %9s", name, s.committed(),
                s.throughput(windowMicros), s.abortRate() * 100, s.errors(), ms(s.percentileMs(50)),
                ms(s.percentileMs(95)), ms(s.percentileMs(99)));
    }

    private static String ms(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }
}
