package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tebaldi report} over two small runs with different trees: the page parses as HTML (jsoup), needs no
 * network (no external script, style or image), and holds both configurations, the charts' data and both trees; a
 * bad RUN_DIR is one message, exit 2, nothing written.
 */
class ReportCommandTest {
    @TempDir
    Path tmp;

    private Path run(String name, String tree) throws Exception {
        Path exp = tmp.resolve(name + ".yaml");
        Files.writeString(exp, """
                name: %s
                workload: {name: bank, accounts: 8}
                tree: {root: %s}
                cluster: {dataServers: 1, coordinators: 1, networkDelay: 0us}
                clients: 2
                warmup: 0s
                duration: 1s
                verify: true
                """.formatted(name, tree));
        Path dir = tmp.resolve(name);
        RunCommandTest.Run r = RunCommandTest.run("run", exp.toString(), "--out", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        return dir;
    }

    @Test
    void aReportOverTwoRunsHoldsTheirConfigurationsChartsAndTrees() throws Exception {
        Path a = run("bank-twopl", "{cc: 2pl, txns: [transfer, audit]}");
        Path b = run("bank-layered", "{cc: ssi, children: [{cc: none, txns: [audit]}, {cc: 2pl, txns: [transfer]}]}");
        Files.delete(b.resolve("tree.svg")); // drawn from the summary's tree YAML instead (or shown as YAML)
        Path out = tmp.resolve("rep/report.html");
        RunCommandTest.Run r = RunCommandTest.run("report", a.toString(), b.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("wrote " + out + " (2 run(s))\n", r.out());
        String html = Files.readString(out);
        Parser parser = Parser.htmlParser().setTrackErrors(20);
        Document doc = Jsoup.parse(html, "", parser);
        assertTrue(parser.getErrors().isEmpty(), "HTML parse errors: " + parser.getErrors());
        assertEquals("Tebaldi-J report: bank-twopl, bank-layered", doc.title());
        assertTrue(doc.select("script[src], link[href], img[src]").isEmpty(), "self-contained: nothing to fetch");
        assertTrue(doc.select("script").stream().anyMatch(s -> s.data().contains("uPlot")), "uPlot inlined");

        var sections = doc.select("section.run");
        assertEquals(2, sections.size());
        Element first = sections.get(0);
        Element second = sections.get(1);
        assertTrue(first.select("pre.config").text().contains("name: bank-twopl"), first.text());
        assertTrue(second.select("pre.config").text().contains("name: bank-layered"), second.text());
        assertTrue(first.select("pre.config").text().contains("accounts: 8"), first.text());
        assertFalse(first.select("pre.config span.diff").isEmpty(), "the differing lines are highlighted");
        assertTrue(first.select("pre.tree-yaml").text().contains("cc: 2pl"));
        assertTrue(second.select("pre.tree-yaml").text().contains("cc: ssi"));
        Element tree1 = first.selectFirst("div.tree");
        assertTrue(tree1.text().contains("2pl") && tree1.text().contains("transfer"), tree1.html());
        Element tree2 = second.selectFirst("div.tree");
        assertTrue(tree2.text().contains("ssi") && tree2.text().contains("audit"), tree2.html());
        if (graphviz()) {
            assertEquals(1, tree1.select("svg").size(), tree1.html());
            assertEquals(1, tree2.select("svg").size(), "drawn from the summary's YAML: " + tree2.html());
        }

        JsonNode data = new ObjectMapper().readTree(doc.getElementById("tebaldi-data").data());
        assertEquals(2, data.size());
        for (int i = 0; i < 2; i++) {
            JsonNode s = new ObjectMapper().readTree(Files.readString((i == 0 ? a : b).resolve("summary.json")));
            JsonNode d = data.get(i);
            assertEquals(s.get("throughput").doubleValue(), d.get("throughput").doubleValue());
            assertEquals(s.get("latency").get("p99Ms").doubleValue(), d.get("latency").get("p99Ms").doubleValue());
            assertEquals(Files.readAllLines((i == 0 ? a : b).resolve("timeline.csv")).size() - 1,
                    d.get("timeline").get("tMs").size());
            String bar = "rect[data-run=" + d.get("label").textValue() + "][data-series=txn/s]";
            assertEquals(s.get("throughput").doubleValue(),
                    Double.parseDouble(doc.selectFirst(bar).attr("data-value")), 1e-9);
        }
        assertEquals(2, doc.select("table.results tbody tr").size());
        assertTrue(doc.select("table.results tbody tr").get(0).text().contains("yes yes"), "checks shown");
        assertTrue(doc.getElementById("timeline") != null);
    }

    private static boolean graphviz() {
        try {
            org.tebaldi.bench.view.Graphviz.dot();
            return true;
        } catch (org.tebaldi.bench.view.Graphviz.Unavailable x) {
            return false;
        }
    }

    @Test
    void aBadRunDirectoryIsOneMessageAndWritesNothing() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Path out = tmp.resolve("r.html");
        RunCommandTest.Run r = RunCommandTest.run("report", empty.toString(), "--out", out.toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertEquals(empty + ": holds no summary.json (nor do its sub-directories): not a run directory. Fix: name "
                + "directories written by 'tebaldi run' or 'tebaldi tune'\n", r.err());
        RunCommandTest.Run missing = RunCommandTest.run("report", tmp.resolve("nope").toString(), "--out",
                out.toString());
        assertEquals(ExitCodes.CONFIG, missing.code());
        assertTrue(missing.err().startsWith(tmp.resolve("nope") + ": no such run directory. Fix: "), missing.err());
        assertFalse(Files.exists(out));
    }
}
