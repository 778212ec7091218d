package org.tebaldi.bench.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;

/**
 * {@code tebaldi report}'s page (docs/experiments.md, "Looking at runs"): one self-contained HTML file comparing runs — no
 * network: uPlot's script and CSS (WebJar {@code org.webjars.npm:uplot}) and the page's CSS are inlined, the bar
 * charts and tree diagrams are inline SVG. Sections: a results table with the checks (serializable, consistent,
 * the machine-saturation warning), bar charts of throughput (txn/s), latency percentiles p50/p95/p99 (ms) and abort
 * rate (%), the throughput timelines (txn/s per 100 ms, uPlot, one series per run), and the runs side by side: each
 * tree's diagram (the run's {@code tree.svg}, else drawn from its YAML with {@link Graphviz}, else its YAML), the
 * configuration as YAML (lines that differ between the runs highlighted) and the tree's YAML. The charts' data is
 * also in the page as JSON
 * ({@code <script id="tebaldi-data" type="application/json">}: per run its label, throughput, abortRate,
 * latency and timeline).
 */
public final class ReportPage {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";

    private ReportPage() {
    }

    /**
     * The page's HTML.
     *
     * @param runs  the runs, in the order given (at least one)
     * @param notes receives one line per tree that could not be drawn (why), for the console
     * @throws IOException if uPlot's files are missing from the class path
     */
    public static String html(List<ReportRun> runs, Consumer<String> notes) throws IOException {
        List<String> labels = runs.stream().map(ReportRun::label).toList();
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        b.append("<title>Tebaldi-J report: ").append(esc(String.join(", ", labels))).append("</title>\n");
        b.append("<style>\n").append(resource(UPLOT + "uPlot.min.css")).append('\n').append(CSS).append("</style>\n");
        b.append("</head>\n<body>\n<h1>Tebaldi-J report</h1>\n<p class=\"meta\">")
                .append(runs.size()).append(" run(s), written ")
                .append(esc(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))).append("</p>\n");
        results(b, runs);
        b.append("<h2>Charts</h2>\n<div class=\"charts\">\n");
        b.append(BarChart.svg("Throughput (txn/s)", "%,.1f", labels, List.of("txn/s"),
                col(runs, "throughput", 1))).append('\n');
        double[][] lat = new double[runs.size()][];
        for (int i = 0; i < runs.size(); i++) {
            ReportRun r = runs.get(i);
            lat[i] = new double[] {r.number("latency.p50Ms"), r.number("latency.p95Ms"), r.number("latency.p99Ms")};
        }
        b.append(BarChart.svg("Latency (ms)", "%,.2f", labels, List.of("p50", "p95", "p99"), lat)).append('\n');
        b.append(BarChart.svg("Abort rate (%)", "%.2f", labels, List.of("abort %"), col(runs, "abortRate", 100)))
                .append("\n</div>\n");
        b.append("<h3>Throughput over time (txn/s per 100 ms; seconds since the clients started, warm-up "
                + "included)</h3>\n<div id=\"timeline\"></div>\n");
        b.append("<h2>Runs side by side</h2>\n<div class=\"side\" style=\"grid-template-columns: repeat(")
                .append(Math.min(runs.size(), 4)).append(", minmax(320px, 1fr))\">\n");
        java.util.Set<String> common = common(runs);
        for (ReportRun r : runs) {
            column(b, r, common, notes);
        }
        b.append("</div>\n");
        b.append("<script id=\"tebaldi-data\" type=\"application/json\">").append(data(runs).replace("</", "<\\/"))
                .append("</script>\n");
        b.append("<script>\n").append(resource(UPLOT + "uPlot.iife.min.js")).append("\n</script>\n");
        b.append("<script>\n").append(TIMELINE_JS).append("</script>\n</body>\n</html>\n");
        return b.toString();
    }

    private static void results(StringBuilder b, List<ReportRun> runs) {
        b.append("<h2>Results and checks</h2>\n<table class=\"results\">\n<thead><tr><th>run</th><th>experiment</th>"
                + "<th>txn/s</th><th>abort %</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>committed</th>"
                + "<th>serializable</th><th>consistent</th><th>machine</th></tr></thead>\n<tbody>\n");
        for (ReportRun r : runs) {
            JsonNode s = r.summary();
            JsonNode c = s.path("checks");
            JsonNode m = s.path("machine");
            b.append("<tr><td>").append(esc(r.label())).append("</td><td>").append(esc(s.path("name").asText()))
                    .append("</td><td>").append(num("%,.1f", r.number("throughput"))).append("</td><td>")
                    .append(num("%.2f", r.number("abortRate") * 100)).append("</td><td>")
                    .append(num("%.2f", r.number("latency.p50Ms"))).append("</td><td>")
                    .append(num("%.2f", r.number("latency.p95Ms"))).append("</td><td>")
                    .append(num("%.2f", r.number("latency.p99Ms"))).append("</td><td>")
                    .append(num("%,.0f", r.number("committed"))).append("</td>")
                    .append(check(c.path("serializable"), c.path("serializabilityReport").asText("")))
                    .append(check(c.path("consistency"), c.path("consistencyDetail").asText("")));
            if (m.path("saturated").asBoolean(false)) {
                b.append("<td class=\"bad\" title=\"").append(esc(m.path("warning").asText("")))
                        .append("\">saturated: ")
                        .append(esc(m.path("warning").asText(""))).append("</td>");
            } else if (m.has("utilization")) {
                b.append("<td class=\"ok\">").append(num("%.0f", m.path("utilization").asDouble() * 100))
                        .append("% CPU of ").append(m.path("cores").asInt()).append(" cores</td>");
            } else {
                b.append("<td>not measured</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</tbody>\n</table>\n");
    }

    private static String check(JsonNode v, String detail) {
        if (!v.isBoolean()) {
            return "<td class=\"na\">not checked</td>";
        }
        return "<td class=\"" + (v.asBoolean() ? "ok" : "bad") + "\" title=\"" + esc(detail) + "\">"
                + (v.asBoolean() ? "yes" : "NO") + "</td>";
    }

    /** The configuration lines every run has (the others are highlighted as differences). */
    private static java.util.Set<String> common(List<ReportRun> runs) {
        java.util.Set<String> common = new java.util.HashSet<>(runs.get(0).configYaml().lines().toList());
        for (ReportRun r : runs) {
            common.retainAll(r.configYaml().lines().toList());
        }
        return common;
    }

    private static void column(StringBuilder b, ReportRun r, java.util.Set<String> common, Consumer<String> notes) {
        b.append("<section class=\"run\" data-run=\"").append(esc(r.label())).append("\">\n<h3>")
                .append(esc(r.label())).append("</h3>\n<p class=\"meta\">")
                .append(esc(r.dir().toAbsolutePath().normalize().toString()))
                .append("</p>\n<h4>Tree</h4>\n<div class=\"tree\">").append(tree(r, notes)).append("</div>\n");
        if (r.treeYaml() != null) {
            b.append("<details><summary>tree YAML</summary><pre class=\"tree-yaml\">").append(esc(r.treeYaml()))
                    .append("</pre></details>\n");
        }
        b.append("<h4>Configuration</h4>\n<pre class=\"config\">");
        for (String line : r.configYaml().lines().toList()) {
            b.append(common.contains(line) ? esc(line) : "<span class=\"diff\">" + esc(line) + "</span>").append('\n');
        }
        b.append("</pre>\n");
        String detail = r.summary().path("checks").path("consistencyDetail").asText("");
        if (!detail.isEmpty()) {
            b.append("<p class=\"meta\">").append(esc(detail)).append("</p>\n");
        }
        b.append("</section>\n");
    }

    /** The tree as inline SVG: the run's tree.svg, else drawn now, else a note (and the YAML below). */
    private static String tree(ReportRun r, Consumer<String> notes) {
        if (r.treeSvg() != null) {
            return inlineSvg(r.treeSvg());
        }
        if (r.treeYaml() == null) {
            return "<p class=\"na\">no CC tree (PostgreSQL run)</p>";
        }
        try {
            CcTree t = TreeLoader.parse(r.treeYaml(), r.label(), TreeContext.of(null));
            return inlineSvg(Graphviz.svg(TreeDot.of(t, r.summary().path("config").path("tree").asText(""))));
        } catch (IOException | ConfigException x) {
            notes.accept(r.label() + ": tree not drawn (" + x.getMessage() + "); the report shows its YAML");
            return "<p class=\"na\">diagram not available: " + esc(x.getMessage()) + "</p><pre>"
                    + esc(r.treeYaml()) + "</pre>";
        }
    }

    /** SVG text without its XML declaration and DOCTYPE, to sit inside HTML. */
    static String inlineSvg(String svg) {
        int at = svg.indexOf("<svg");
        return at < 0 ? "" : svg.substring(at);
    }

    private static String data(List<ReportRun> runs) throws IOException {
        ArrayNode arr = JSON.createArrayNode();
        for (ReportRun r : runs) {
            ObjectNode o = arr.addObject();
            o.put("label", r.label());
            o.put("name", r.summary().path("name").asText());
            o.set("throughput", r.summary().path("throughput"));
            o.set("abortRate", r.summary().path("abortRate"));
            o.set("latency", r.summary().path("latency"));
            ObjectNode tl = o.putObject("timeline");
            ArrayNode t = tl.putArray("tMs");
            for (long v : r.timeMs()) {
                t.add(v);
            }
            ArrayNode v = tl.putArray("txnPerSec");
            for (double x : r.txnPerSec()) {
                v.add(x);
            }
        }
        return JSON.writeValueAsString(arr);
    }

    private static double[][] col(List<ReportRun> runs, String path, double scale) {
        double[][] v = new double[runs.size()][1];
        for (int i = 0; i < runs.size(); i++) {
            v[i][0] = runs.get(i).number(path) * scale;
        }
        return v;
    }

    private static String num(String format, double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, format, v);
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ReportPage.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(name + " is not on the class path (WebJar org.webjars.npm:uplot missing from "
                        + "the build)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Escapes text for HTML content and attribute values. */
    static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    private static final String CSS = """
            body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #222; }
            h1 { margin-bottom: 4px; } h2 { margin-top: 28px; border-bottom: 1px solid #ccc; }
            .meta { color: #666; font-size: 12px; }
            table.results { border-collapse: collapse; font-size: 13px; }
            table.results th, table.results td { border: 1px solid #ddd; padding: 4px 8px; text-align: right; }
            table.results td:first-child, table.results td:nth-child(2) { text-align: left; }
            .ok { color: #176f2c; } .bad { color: #b00020; font-weight: bold; } .na { color: #888; }
            .charts { display: flex; flex-wrap: wrap; gap: 24px; }
            svg.bars text { font-size: 12px; } svg.bars .chart-title { font-size: 14px; font-weight: bold; }
            .side { display: grid; gap: 16px; }
            section.run { border: 1px solid #ddd; border-radius: 6px; padding: 8px 12px; overflow: auto; }
            .tree svg { max-width: 100%; height: auto; }
            pre { background: #f7f7f7; padding: 8px; font-size: 12px; overflow: auto; }
            pre.config .diff { background: #fff3b0; }
            """;

    /** Draws the timelines from the page's JSON with uPlot: one x axis (seconds), one series per run. */
    private static final String TIMELINE_JS = """
            (function () {
              var runs = JSON.parse(document.getElementById('tebaldi-data').textContent);
              var colors = %s;
              var xs = {};
              runs.forEach(function (r) { r.timeline.tMs.forEach(function (t) { xs[t] = true; }); });
              var x = Object.keys(xs).map(Number).sort(function (a, b) { return a - b; });
              var data = [x.map(function (t) { return t / 1000; })];
              var series = [{label: 's'}];
              runs.forEach(function (r, i) {
                var at = {};
                r.timeline.tMs.forEach(function (t, j) { at[t] = r.timeline.txnPerSec[j]; });
                data.push(x.map(function (t) { return t in at ? at[t] : null; }));
                series.push({label: r.label, stroke: colors[i %% colors.length], width: 1.5, spanGaps: true});
              });
              var el = document.getElementById('timeline');
              new uPlot({width: Math.min(1300, window.innerWidth - 60), height: 320, series: series,
                         scales: {x: {time: false}},
                         axes: [{label: 'seconds'}, {label: 'txn/s', size: 70}]}, data, el);
            })();
            """.formatted(colorsJson());

    private static String colorsJson() {
        List<String> c = new ArrayList<>();
        for (String s : BarChart.COLORS) {
            c.add("'" + s + "'");
        }
        return "[" + String.join(", ", c) + "]";
    }
}
