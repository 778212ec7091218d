package org.tebaldi.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.tebaldi.bench.report.PaperChart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi paper-chart RUN_DIR... [--paper config/experiments/cluster/paper.csv] [--out DIR]}
 * (docs/simulation.md, "Predictions"): finds every {@code summary.json} under the run directories, keeps each
 * experiment's best throughput (over its client counts), and for each figure of the paper file writes
 * {@code <figure>.png} — simulated and published throughput side by side, one pair of bars per experiment — and
 * {@code predictions.csv} (figure, experiment, clients of the best point, simulated txn/s, paper txn/s, and each
 * one's ratio to the figure's first experiment). Exit code {@value ExitCodes#CONFIG} if the paper file cannot be
 * read, {@value ExitCodes#RUN_FAILED} if nothing could be written.
 */
@Command(name = "paper-chart", description = "Draw simulated cluster throughputs beside the dissertation's.")
final class PaperChartCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "run or sweep directories (searched for "
            + "summary.json)")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--paper", paramLabel = "FILE", description = "the paper's numbers (default: "
            + "config/experiments/cluster/paper.csv)")
    Path paper = Path.of("config/experiments/cluster/paper.csv");

    @Option(names = "--out", paramLabel = "DIR", description = "where the charts and predictions.csv go "
            + "(default: the first RUN_DIR)")
    Path out;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        List<String[]> rows = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(paper)) {
                if (!line.isBlank() && !line.startsWith("#") && !line.startsWith("figure,")) {
                    String[] c = line.split(",", 4);
                    Double.parseDouble(c[2]);
                    rows.add(c);
                }
            }
        } catch (IOException | RuntimeException x) {
            stderr.println(paper + ": cannot read the paper's numbers (" + x.getMessage() + "). Fix: a CSV with "
                    + "the columns figure,experiment,paper_txn_s,source");
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        Map<String, double[]> best = new LinkedHashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (Path d : dirs) {
            try (Stream<Path> s = Files.walk(d)) {
                for (Path f : s.filter(p -> p.getFileName().toString().equals("summary.json")).sorted().toList()) {
                    JsonNode n = json.readTree(f.toFile());
                    String name = n.path("name").asText();
                    double t = n.path("throughput").asDouble();
                    double[] b = best.get(name);
                    if (b == null || t > b[0]) {
                        best.put(name, new double[] {t, n.path("config").path("clients").asDouble()});
                    }
                }
            } catch (IOException x) {
                stderr.println("cannot read " + d + ": " + x.getMessage());
                stderr.flush();
                return ExitCodes.RUN_FAILED;
            }
        }
        Path dir = out != null ? out : dirs.get(0);
        StringBuilder csv = new StringBuilder("figure,experiment,clients,simulated_txn_s,paper_txn_s,"
                + "simulated_ratio,paper_ratio\n");
        Map<String, List<PaperChart.Bar>> figures = new LinkedHashMap<>();
        Map<String, double[]> first = new LinkedHashMap<>();
        for (String[] r : rows) {
            double[] b = best.get(r[1]);
            double p = Double.parseDouble(r[2]);
            double[] base = first.computeIfAbsent(r[0], k -> new double[] {b == null ? Double.NaN : b[0], p});
            csv.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%.0f,%s,%.2f%n", r[0], r[1],
                    b == null ? "" : String.format(Locale.ROOT, "%.0f", b[1]),
                    b == null ? "" : String.format(Locale.ROOT, "%.1f", b[0]), p,
                    b == null ? "" : String.format(Locale.ROOT, "%.2f", b[0] / base[0]), p / base[1]));
            figures.computeIfAbsent(r[0], k -> new ArrayList<>()).add(new PaperChart.Bar(
                    r[1].replaceFirst("^cluster-", ""), b == null ? 0 : b[0], p));
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("predictions.csv"), csv.toString());
            for (Map.Entry<String, List<PaperChart.Bar>> e : figures.entrySet()) {
                PaperChart.write(dir.resolve("cluster-" + e.getKey() + ".png"), "simulated cluster vs dissertation: "
                        + e.getKey(), e.getValue());
            }
        } catch (IOException x) {
            stderr.println("cannot write " + dir + ": " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        stdout.print(csv);
        stdout.println("wrote " + dir.resolve("predictions.csv") + " and " + figures.size() + " chart(s)");
        stdout.flush();
        return ExitCodes.OK;
    }
}
