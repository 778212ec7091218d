package org.tebaldi.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code results.csv} of a sweep (RFC 4180, header line, {@code \n} line ends): one row per point, in run order,
 * with the columns {@code point} (the point's sub-directory), one column per swept key (the value's label, e.g.
 * {@code tree=2pl}, {@code clients=200}; empty when a point of another experiment file does not sweep it),
 * {@code throughput} (committed txn/s over the measured window), {@code abortRate} (0..1), {@code p50Ms},
 * {@code p95Ms}, {@code p99Ms} (commit latency incl. retries, ms), {@code committed}, {@code aborted},
 * {@code serializable} and {@code consistency} ({@code true}/{@code false}, empty when not checked), and
 * {@code status} ({@code ok}, {@code check-failed}, {@code run-failed}). The numbers are those of the point's
 * {@code summary.json}; a failed run leaves them empty.
 */
public final class ResultsCsv {
    /** File name, in the sweep's run directory. */
    public static final String FILE = "results.csv";
    /** The measurement columns, after {@code point} and the swept keys. */
    public static final List<String> MEASURES = List.of("throughput", "abortRate", "p50Ms", "p95Ms", "p99Ms",
            "committed", "aborted", "serializable", "consistency", "status");

    private ResultsCsv() {
    }

    /** The header: {@code point}, the swept keys, then {@link #MEASURES}. */
    public static List<String> header(List<String> keys) {
        List<String> h = new ArrayList<>();
        h.add("point");
        h.addAll(keys);
        h.addAll(MEASURES);
        return h;
    }

    /** The whole file: the header line, then one line per result. */
    public static String render(List<String> keys, List<PointResult> results) {
        StringBuilder b = new StringBuilder();
        line(b, header(keys));
        for (PointResult r : results) {
            List<String> cells = new ArrayList<>();
            cells.add(r.point().dir());
            for (String k : keys) {
                cells.add(r.point().values().getOrDefault(k, ""));
            }
            cells.add(format(r.number("throughput"), "%.1f"));
            cells.add(format(r.number("abortRate"), "%.6f"));
            cells.add(format(r.number("latency.p50Ms"), "%.3f"));
            cells.add(format(r.number("latency.p95Ms"), "%.3f"));
            cells.add(format(r.number("latency.p99Ms"), "%.3f"));
            cells.add(format(r.number("committed"), "%.0f"));
            cells.add(format(r.number("aborted"), "%.0f"));
            cells.add(r.check("serializable") == null ? "" : r.check("serializable").toString());
            cells.add(r.check("consistency") == null ? "" : r.check("consistency").toString());
            cells.add(r.status().label());
            line(b, cells);
        }
        return b.toString();
    }

    /**
     * Writes {@code dir/results.csv} (replacing it).
     *
     * @throws IOException if it cannot be written
     */
    public static void write(Path dir, List<String> keys, List<PointResult> results) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(FILE), render(keys, results), StandardCharsets.UTF_8);
    }

    private static void line(StringBuilder b, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(quote(cells.get(i)));
        }
        b.append('\n');
    }

    /** The cell as RFC 4180 wants it: quoted, with quotes doubled, if it holds a comma, quote or line break. */
    static String quote(String cell) {
        if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) {
            return cell;
        }
        return '"' + cell.replace("\"", "\"\"") + '"';
    }

    private static String format(Double v, String pattern) {
        return v == null ? "" : String.format(Locale.ROOT, pattern, v);
    }
}
