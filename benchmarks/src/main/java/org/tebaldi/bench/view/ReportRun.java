package org.tebaldi.bench.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.tebaldi.core.config.ConfigException;

/**
 * One run as {@link ReportPage} shows it, read from its run directory: {@code summary.json} (results, checks, the
 * resolved configuration with the tree's YAML), the throughput timeline from {@code timeline.csv} ({@code tMs,
 * throughput} per 100 ms; else the summary's {@code timeline}) and the tree's diagram {@code tree.svg} when the run
 * wrote one.
 *
 * @param label     the run's name in the report: its directory's name (with the parent's for a sweep point)
 * @param dir       the run directory
 * @param summary   the parsed {@code summary.json}
 * @param configYaml the {@code config} section as YAML, without the tree's text (shown as {@code treeYaml})
 * @param treeYaml  the tree as YAML (the tree file's text); null if the run had none (PostgreSQL)
 * @param treeSvg   the contents of {@code tree.svg}; null if the directory has none
 * @param timeMs    the timeline's bucket ends, ms since the clients started
 * @param txnPerSec the timeline's throughput per bucket, txn/s
 */
public record ReportRun(String label, Path dir, JsonNode summary, String configYaml, String treeYaml,
                        String treeSvg, long[] timeMs, double[] txnPerSec) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    /**
     * The runs of {@code dir}: the run itself when it holds {@code summary.json}, else — a sweep's directory — each
     * point sub-directory that holds one, in name order.
     *
     * @throws ConfigException naming the directory if it does not exist, holds no run, or a summary is not readable
     */
    public static List<ReportRun> load(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ConfigException(dir.toString(), 0, "", Files.exists(dir) ? "is a file, not a run directory"
                    : "no such run directory", "name directories written by 'tebaldi run' or 'tebaldi tune' "
                    + "(each holds summary.json)");
        }
        if (Files.isRegularFile(dir.resolve("summary.json"))) {
            return List.of(read(dir, label(dir, false)));
        }
        List<ReportRun> runs = new ArrayList<>();
        try (Stream<Path> kids = Files.list(dir)) {
            for (Path p : kids.filter(p -> Files.isRegularFile(p.resolve("summary.json"))).sorted().toList()) {
                runs.add(read(p, label(p, true)));
            }
        } catch (IOException x) {
            throw new ConfigException(dir.toString(), 0, "", "cannot list the directory (" + x.getMessage() + ")",
                    "check that it is readable");
        }
        if (runs.isEmpty()) {
            throw new ConfigException(dir.toString(), 0, "", "holds no summary.json (nor do its sub-directories): "
                    + "not a run directory", "name directories written by 'tebaldi run' or 'tebaldi tune'");
        }
        return runs;
    }

    private static String label(Path dir, boolean point) {
        Path abs = dir.toAbsolutePath().normalize();
        String name = abs.getFileName() == null ? abs.toString() : abs.getFileName().toString();
        return point && abs.getParent() != null && abs.getParent().getFileName() != null
                ? abs.getParent().getFileName() + "/" + name : name;
    }

    private static ReportRun read(Path dir, String label) {
        Path file = dir.resolve("summary.json");
        JsonNode s;
        try {
            s = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException x) {
            throw new ConfigException(file.toString(), 0, "", "not a readable summary (" + x.getMessage() + ")",
                    "re-run the experiment, or leave this directory out");
        }
        if (s == null || !s.isObject() || !s.has("throughput")) {
            throw new ConfigException(file.toString(), 0, "", "not a run summary (no 'throughput')",
                    "name directories written by 'tebaldi run' or 'tebaldi tune'");
        }
        JsonNode config = s.path("config");
        String treeYaml = config.path("treeYaml").isTextual() ? config.path("treeYaml").asText() : null;
        String configYaml;
        try {
            JsonNode shown = config.deepCopy();
            if (shown instanceof ObjectNode o) {
                o.remove("treeYaml");
            }
            configYaml = config.isMissingNode() ? "(summary.json has no config)" : YAML.writeValueAsString(shown);
        } catch (IOException x) {
            configYaml = config.toPrettyString();
        }
        String svg = null;
        Path tree = dir.resolve(TreeDiagrams.FILE);
        try {
            if (Files.isRegularFile(tree)) {
                svg = Files.readString(tree, StandardCharsets.UTF_8);
            }
        } catch (IOException x) {
            svg = null;
        }
        long[][] t = new long[1][];
        double[][] v = new double[1][];
        timeline(dir, s, t, v);
        return new ReportRun(label, dir, s, configYaml, treeYaml, svg, t[0], v[0]);
    }

    /** timeline.csv if present and readable, else the summary's {@code timeline}. */
    private static void timeline(Path dir, JsonNode s, long[][] t, double[][] v) {
        List<long[]> rows = new ArrayList<>();
        List<Double> vals = new ArrayList<>();
        Path csv = dir.resolve("timeline.csv");
        if (Files.isRegularFile(csv)) {
            try {
                for (String line : Files.readAllLines(csv, StandardCharsets.UTF_8)) {
                    String[] f = line.split(",");
                    if (f.length >= 2 && !f[0].isBlank() && Character.isDigit(f[0].charAt(0))) {
                        rows.add(new long[] {Long.parseLong(f[0].trim())});
                        vals.add(Double.parseDouble(f[1].trim()));
                    }
                }
            } catch (IOException | NumberFormatException x) {
                rows.clear();
                vals.clear();
            }
        }
        if (rows.isEmpty()) {
            for (JsonNode p : s.path("timeline")) {
                rows.add(new long[] {p.path("tMs").asLong()});
                vals.add(p.path("throughput").asDouble());
            }
        }
        t[0] = rows.stream().mapToLong(r -> r[0]).toArray();
        v[0] = vals.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** A number of the summary at a dotted path (e.g. {@code latency.p99Ms}); NaN if absent. */
    public double number(String path) {
        JsonNode n = summary;
        for (String k : path.split("\\.")) {
            n = n.path(k);
        }
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }
}
