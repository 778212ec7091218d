package org.tebaldi.bench.tune;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.tebaldi.autoconf.configurator.Iteration;
import org.tebaldi.autoconf.reconfig.SwapResult;
import org.tebaldi.autoconf.stats.GainEstimate;
import org.tebaldi.autoconf.tuning.SwapEvent;
import org.tebaldi.bench.driver.TimelinePoint;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.workload.Shifts;
import org.tebaldi.bench.report.TimelineChart;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.view.TreeDiagrams;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeLoader;

/**
 * The tuning daemon's result files, beside {@code summary.json} and {@code timeline.csv}:
 * <ul>
 *   <li>{@code trees/start.yaml} and {@code trees/iteration-N.yaml}: every tree adopted, loadable with
 *       {@code --set tree=FILE}, each with its diagram {@code .svg} and {@code .dot} beside it
 *       ({@link TreeDiagrams}: only the {@code .dot} where Graphviz cannot be installed);</li>
 *   <li>{@code iterations.csv}: per iteration and candidate — bottleneck edge and score (ms blocked per s), the
 *       incumbent's mean (txn/s), the edge the candidate addresses, strategy, tree, the candidate's mean (txn/s),
 *       its gain with the interval's ends (relative: 0.05 = +5%) and level, the verdict or why it was rejected, the
 *       confirmation's gain and interval (for the iteration's winner), whether it was adopted;</li>
 *   <li>{@code reconfigurations.csv}: per swap — start and end (ms since the run started), protocol and note, phase
 *       durations (ms), force-aborted transactions, and the worst 100 ms throughput bucket the swap overlapped;</li>
 *   <li>{@code tuning-timeline.csv}: throughput per 100 ms with a column marking where swaps started and ended
 *       and where the workload shifted ({@code shift-N}), and {@code tuning-timeline.png}: the same as a chart, each
 *       swap a numbered vertical line, re-entries, engine drifts and shifts marked;</li>
 *   <li>{@code tuning.json}: the outcome, the start and final trees, the final throughput, each iteration (with
 *       the winner's confirmation), the daemon's re-entries and the engine drifts it did not re-tune for
 *       ({@code reentries}, {@code engineDrifts}: ms since the run started, why), and the workload's shifts
 *       ({@code shifts}: phase, atMs, firstMs, changes; summary.json has them too).</li>
 * </ul>
 */
final class TuneFiles {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TuneFiles() {
    }

    static void write(Path dir, Experiment e, List<Iteration> its, List<SwapEvent> swaps, String outcome,
                      double finalTxnPerSec, long runStartNanos, RunResult r, List<TuneConsole.Reentry> reentries,
                      List<TuneConsole.Reentry> drifts) throws IOException {
        Path trees = Files.createDirectories(dir.resolve("trees"));
        yaml(trees.resolve("start.yaml"), e.tree().tree());
        StringBuilder csv = new StringBuilder("iteration,bottleneck,bottleneckMsPerSec,startTxnPerSec,edge,strategy,"
                + "tree,txnPerSec,gain,gainLow,gainHigh,confidence,verdict,rejected,confirmedGain,confirmedLow,"
                + "confirmedHigh,adopted\n");
        ObjectNode json = JSON.createObjectNode();
        json.put("outcome", outcome);
        json.put("startTree", e.tree().tree().describe());
        CcTree last = e.tree().tree();
        ArrayNode arr = json.putArray("iterations");
        for (Iteration it : its) {
            ObjectNode o = arr.addObject();
            o.put("iteration", it.number());
            o.put("bottleneck", it.bottleneck() == null ? null : it.bottleneck().edge());
            o.put("bottleneckMsPerSec", it.bottleneck() == null ? 0 : it.bottleneck().scoreMicrosPerSec() / 1000);
            o.put("startTree", it.start().describe());
            o.put("startTxnPerSec", it.startTxnPerSec());
            o.put("adoptedTree", it.adopted().describe());
            o.put("adoptedTxnPerSec", it.adoptedTxnPerSec());
            o.put("improved", it.improved());
            o.put("candidates", it.trials().size());
            if (it.confirmation() != null) {
                ObjectNode c = o.putObject("confirmation");
                c.put("gain", it.confirmation().gain());
                c.put("low", it.confirmation().low());
                c.put("high", it.confirmation().high());
                c.put("confidence", it.confirmation().confidence());
            }
            if (it.improved()) {
                yaml(trees.resolve("iteration-" + it.number() + ".yaml"), it.adopted());
                last = it.adopted();
            }
            for (Iteration.Trial t : it.trials()) {
                csv.append(it.number()).append(',').append(q(it.bottleneck() == null ? "" : it.bottleneck().edge()))
                        .append(',').append(f(it.bottleneck() == null ? 0 : it.bottleneck().scoreMicrosPerSec() / 1000))
                        .append(',').append(f(it.startTxnPerSec())).append(',').append(q(t.edge())).append(',')
                        .append(q(t.candidate().strategy()))
                        .append(',').append(q(t.candidate().tree().describe())).append(',')
                        .append(Double.isNaN(t.txnPerSec()) ? "" : f(t.txnPerSec())).append(',')
                        .append(gain(t.estimate())).append(',')
                        .append(t.verdict() == null ? "" : q(t.verdict())).append(',')
                        .append(q(t.rejected() == null ? "" : t.rejected())).append(',');
                boolean winner = it.confirmation() != null && t.candidate().tree() == confirmed(it);
                csv.append(winner ? interval(it.confirmation()) : ",,").append(',')
                        .append(it.improved() && t.candidate().tree() == it.adopted()).append('\n');
            }
        }
        json.put("finalTree", last.describe());
        json.put("finalTxnPerSec", Double.isNaN(finalTxnPerSec) ? null : finalTxnPerSec);
        json.put("swaps", swaps.size());
        ArrayNode re = json.putArray("reentries");
        for (TuneConsole.Reentry x : reentries) {
            re.addObject().put("tMs", (x.nanos() - runStartNanos) / 1_000_000).put("why", x.why());
        }
        ArrayNode dr = json.putArray("engineDrifts");
        for (TuneConsole.Reentry x : drifts) {
            dr.addObject().put("tMs", (x.nanos() - runStartNanos) / 1_000_000).put("why", x.why());
        }
        List<Shifts.Happened> shifts = e.workload().shifts().happened();
        json.set("shifts", JSON.valueToTree(shifts));
        Files.writeString(dir.resolve("iterations.csv"), csv, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("tuning.json"), JSON.writeValueAsString(json) + "\n", StandardCharsets.UTF_8);
        List<TimelinePoint> timeline = r.driver().timeline();
        StringBuilder sw = new StringBuilder("startMs,endMs,protocol,note,tree,cleanupMs,prepareMs,applyMs,drainMs,"
                + "totalMs,forceAborted,worst100msTxnPerSec\n");
        for (SwapEvent s : swaps) {
            long a = (s.startNanos() - runStartNanos) / 1_000_000;
            long b = (s.endNanos() - runStartNanos) / 1_000_000;
            SwapResult x = s.result();
            sw.append(a).append(',').append(b).append(',').append(x.protocol()).append(',')
                    .append(q(x.note() == null ? "" : x.note())).append(',').append(q(s.tree())).append(',')
                    .append(f(x.cleanupMicros() / 1000.0)).append(',').append(f(x.prepareMicros() / 1000.0))
                    .append(',').append(f(x.applyMicros() / 1000.0)).append(',').append(f(x.drainMicros() / 1000.0))
                    .append(',').append(f(x.totalMicros() / 1000.0)).append(',').append(x.forceAborted()).append(',')
                    .append(f(worst(timeline, a, b))).append('\n');
        }
        Files.writeString(dir.resolve("reconfigurations.csv"), sw, StandardCharsets.UTF_8);
        StringBuilder tl = new StringBuilder("tMs,throughput,event\n");
        for (TimelinePoint p : timeline) {
            StringBuilder ev = new StringBuilder();
            for (SwapEvent s : swaps) {
                long a = (s.startNanos() - runStartNanos) / 1_000_000;
                long b = (s.endNanos() - runStartNanos) / 1_000_000;
                if (a >= p.tMs() - 100 && a < p.tMs()) {
                    ev.append(ev.length() > 0 ? " " : "").append(s.result().protocol()).append("-start");
                }
                if (b >= p.tMs() - 100 && b < p.tMs()) {
                    ev.append(ev.length() > 0 ? " " : "").append(s.result().protocol()).append("-end");
                }
            }
            for (Shifts.Happened h : shifts) {
                if (h.atMs() >= p.tMs() - 100 && h.atMs() < p.tMs()) {
                    ev.append(ev.length() > 0 ? " " : "").append("shift-").append(h.phase());
                }
            }
            tl.append(p.tMs()).append(',').append(f(p.throughput())).append(',').append(ev).append('\n');
        }
        Files.writeString(dir.resolve("tuning-timeline.csv"), tl, StandardCharsets.UTF_8);
        List<TimelineChart.Mark> marks = new java.util.ArrayList<>();
        for (int i = 0; i < swaps.size(); i++) {
            SwapEvent s = swaps.get(i);
            String p = s.result().protocol().equals("online-update") ? "online" : "restart";
            marks.add(new TimelineChart.Mark((s.startNanos() - runStartNanos) / 1e9, (i + 1) + " " + p));
        }
        for (TuneConsole.Reentry x : reentries) {
            marks.add(new TimelineChart.Mark((x.nanos() - runStartNanos) / 1e9, "re-enter"));
        }
        for (TuneConsole.Reentry x : drifts) {
            marks.add(new TimelineChart.Mark((x.nanos() - runStartNanos) / 1e9, "engine drift"));
        }
        for (Shifts.Happened h : shifts) {
            marks.add(new TimelineChart.Mark(h.atMs() / 1e3, "shift " + h.phase()));
        }
        TimelineChart.write(dir.resolve("tuning-timeline.png"), timeline, r.driver().window().warmupMs(),
                e.name() + ": throughput per 100 ms, reconfigurations marked", marks);
    }

    /** The tree confirmed in {@code it} (the adopted one, or the winner that was not confirmed). */
    private static CcTree confirmed(Iteration it) {
        if (it.improved()) {
            return it.adopted();
        }
        Iteration.Trial best = null;
        for (Iteration.Trial t : it.trials()) {
            if (Iteration.BETTER.equals(t.verdict()) && (best == null || t.estimate().low() > best.estimate().low())) {
                best = t;
            }
        }
        return best == null ? null : best.candidate().tree();
    }

    /** {@code gain,low,high,confidence} (empty fields when not run). */
    private static String gain(GainEstimate g) {
        return g == null ? ",,," : interval(g) + "," + g.confidence();
    }

    private static String interval(GainEstimate g) {
        return f3(g.gain()) + "," + f3(g.low()) + "," + f3(g.high());
    }

    private static String f3(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    /** The lowest 100 ms bucket overlapping [startMs, endMs], txn/s (NaN if none). */
    static double worst(List<TimelinePoint> timeline, long startMs, long endMs) {
        double w = Double.NaN;
        for (TimelinePoint p : timeline) {
            long from = p.tMs() - 100;
            if (p.tMs() > startMs && from <= endMs) {
                w = Double.isNaN(w) ? p.throughput() : Math.min(w, p.throughput());
            }
        }
        return w;
    }

    private static void yaml(Path file, CcTree tree) throws IOException {
        Files.writeString(file, "# " + tree.describe() + "\n" + TreeLoader.toYaml(tree.activeSpec()),
                StandardCharsets.UTF_8);
        String base = file.getFileName().toString().replaceFirst("\\.yaml$", "");
        TreeDiagrams.write(file.getParent(), base, tree, "trees/" + base, ERR);
    }

    /** Where a diagram's warnings go (the console's error stream). */
    private static final java.io.PrintWriter ERR = new java.io.PrintWriter(System.err, true,
            StandardCharsets.UTF_8);

    private static String f(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String q(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
