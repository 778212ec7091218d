package org.tebaldi.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.driver.ProgressTick;
import org.tebaldi.bench.driver.TypeStats;

/** The console lines of {@code scripts/tebaldi run}: the per-second progress line and the summary table. */
public final class ConsoleFormat {
    private ConsoleFormat() {
    }

    /**
     * E.g. {@code [ 12s/35s] measure   23,456 txn/s  abort 2.1%}; a simulated run's seconds are virtual and the line
     * adds the wall time, e.g. {@code [ 3s/12s virtual] measure 31,020 txn/s  abort 0.4%  (wall 41 s)}.
     */
    public static String progress(ProgressTick t) {
        int width = Long.toString(t.totalSeconds()).length();
        String line = String.format(Locale.ROOT, "[%" + width + "ds/%ds%s] %-7s %,9.0f txn/s  abort %.1f%%",
                t.second(), t.totalSeconds(), t.wallMillis() >= 0 ? " virtual" : "", t.phase(), t.txnPerSec(),
                t.abortRate() * 100);
        return t.wallMillis() >= 0 ? line + String.format(Locale.ROOT, "  (wall %.0f s)", t.wallMillis() / 1000.0)
                : line;
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
