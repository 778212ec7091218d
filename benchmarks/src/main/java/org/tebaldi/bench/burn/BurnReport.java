package org.tebaldi.bench.burn;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.text.StringEscapeUtils;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.tree.TreeSpec;

/**
 * The files of a burn campaign: {@code burn.csv} (one row per seed: seed, workload, tree, faults, committed,
 * aborted, virtual ms, wall ms, verdict) and {@code burn.json} (totals: seeds, failures, committed and aborted
 * transactions, faults injected by kind, wall time, rate, and each failure with its shrunk scenario file); and the
 * totals printed at the end.
 */
public final class BurnReport {
    /** Header of {@code burn.csv}. */
    public static final String CSV_HEADER = "seed,workload,tree,faults,committed,aborted,virtual_ms,wall_ms,verdict";

    private BurnReport() {
    }

    /** The tree in one line, e.g. {@code ssi{2pl[t_a,t_b],none[t_ro]}}. */
    public static String tree(String yaml) {
        StringBuilder b = new StringBuilder();
        describe(TreeLoader.readSpec(yaml, "scenario tree"), b);
        return b.toString();
    }

    private static void describe(TreeSpec s, StringBuilder b) {
        b.append(s.cc);
        if (s.children.isEmpty()) {
            b.append('[').append(String.join(",", s.txns)).append(']');
            return;
        }
        b.append('{');
        for (int i = 0; i < s.children.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            describe(s.children.get(i), b);
        }
        b.append('}');
    }

    /** The faults in one field, e.g. {@code net-jitter+reconfig*2} (empty without faults). */
    public static String faults(Scenario s) {
        List<String> parts = new ArrayList<>();
        s.faultCounts().forEach((k, n) -> parts.add(k.label() + (n > 1 ? "*" + n : "")));
        return String.join("+", parts);
    }

    /**
     * Writes {@code burn.csv} and {@code burn.json} into {@code dir} (created if missing).
     *
     * @param shrunk the shrunk scenario file of each failed seed that was shrunk (seed → file)
     * @throws IOException if a file cannot be written
     */
    public static void write(Path dir, List<BurnResult> results, long wallMillis, int threads,
                             Map<Long, Path> shrunk) throws IOException {
        Files.createDirectories(dir);
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        for (BurnResult r : results) {
            Scenario s = r.scenario();
            csv.append(s.seed()).append(',').append(s.workload()).append(',')
                    .append(StringEscapeUtils.escapeCsv(tree(s.tree()))).append(',').append(faults(s)).append(',')
                    .append(r.committed()).append(',').append(r.aborted()).append(',')
                    .append(String.format(Locale.ROOT, "%.3f", r.virtualMicros() / 1000.0)).append(',')
                    .append(r.wallMillis()).append(',').append(r.verdict().label()).append('\n');
        }
        Files.writeString(dir.resolve("burn.csv"), csv, StandardCharsets.UTF_8);
        Map<String, Object> json = new LinkedHashMap<>(totals(results, wallMillis, threads));
        List<Map<String, Object>> failures = new ArrayList<>();
        for (BurnResult r : results) {
            if (!r.passed()) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("seed", r.scenario().seed());
                f.put("verdict", r.verdict().label());
                f.put("message", r.message());
                Path p = shrunk.get(r.scenario().seed());
                if (p != null) {
                    f.put("shrunk", p.toString());
                }
                failures.add(f);
            }
        }
        json.put("failures", failures);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("burn.json").toFile(), json);
    }

    /** The totals of a campaign, keyed as in {@code burn.json}. */
    public static Map<String, Object> totals(List<BurnResult> results, long wallMillis, int threads) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("seeds", results.size());
        t.put("firstSeed", results.isEmpty() ? 0 : results.get(0).scenario().seed());
        t.put("lastSeed", results.isEmpty() ? 0 : results.get(results.size() - 1).scenario().seed());
        t.put("failed", results.stream().filter(r -> !r.passed()).count());
        t.put("committed", results.stream().mapToLong(BurnResult::committed).sum());
        t.put("aborted", results.stream().mapToLong(BurnResult::aborted).sum());
        Map<String, Long> faults = new LinkedHashMap<>();
        BurnCampaign.faults(results).forEach((k, n) -> faults.put(k.label(), n));
        t.put("faults", faults);
        t.put("seedsWithFaults", results.stream().filter(r -> !r.scenario().faults().isEmpty()).count());
        t.put("virtualSeconds", results.stream().mapToLong(BurnResult::virtualMicros).sum() / 1e6);
        t.put("wallSeconds", wallMillis / 1000.0);
        t.put("threads", threads);
        t.put("seedsPerSecond", wallMillis == 0 ? 0 : results.size() * 1000.0 / wallMillis);
        return t;
    }

    /** The fault combinations the draw avoids on purpose (printed with the totals; docs/reliability.md "The burn test"). */
    public static final String NOT_DRAWN = "not drawn: a coordinator crash with a link drop touching a coordinator "
            + "(known gap: 2PC without a coordinator log can commit at one data server and abort at another) or with "
            + "a reconfiguration (the reconfiguration server waits for every coordinator)";

    /** Prints the totals, one per line (and the combinations not drawn). */
    public static void print(PrintWriter out, List<BurnResult> results, long wallMillis, int threads) {
        Map<String, Object> t = totals(results, wallMillis, threads);
        out.printf(Locale.ROOT, "burn: %d seeds (%d–%d) in %.1f s on %d threads, %.2f seeds/s%n", results.size(),
                t.get("firstSeed"), t.get("lastSeed"), wallMillis / 1000.0, threads, t.get("seedsPerSecond"));
        out.printf(Locale.ROOT, "  transactions: %d committed, %d aborted; %.1f virtual s%n", t.get("committed"),
                t.get("aborted"), t.get("virtualSeconds"));
        out.println("  faults injected: " + BurnCampaign.faultLabels(BurnCampaign.faults(results)) + " in "
                + t.get("seedsWithFaults") + " seeds");
        out.println("  " + NOT_DRAWN);
        out.println("  failures: " + t.get("failed"));
    }
}
