package org.tebaldi.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.driver.TimelinePoint;
import org.tebaldi.bench.experiment.SweepPoint;

/** results.csv, the sweep charts and the timeline chart, from hand-made point results (no cluster runs). */
class SweepReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static PointResult result(int index, Map<String, String> values, double throughput, double abortRate,
                              PointResult.Status status) {
        SweepPoint p = new SweepPoint(index, String.format("%02d_x", index), values, null);
        if (status == PointResult.Status.RUN_FAILED) {
            return new PointResult(p, null, status);
        }
        ObjectNode s = JSON.createObjectNode();
        s.put("throughput", throughput);
        s.put("abortRate", abortRate);
        s.put("committed", (long) (throughput * 10));
        s.put("aborted", 7);
        ObjectNode lat = s.putObject("latency");
        lat.put("p50Ms", 1.25);
        lat.put("p95Ms", 4.5);
        lat.putNull("p99Ms");
        ObjectNode checks = s.putObject("checks");
        checks.put("serializable", true);
        checks.putNull("consistency");
        return new PointResult(p, s, status);
    }

    static Map<String, String> values(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** Tree x clients, as Fig 4.7: two trees, three client counts, one failed run. */
    static List<PointResult> fig47() {
        List<PointResult> r = new ArrayList<>();
        int i = 1;
        for (String tree : List.of("2pl", "tebaldi-3layer")) {
            for (int clients : List.of(50, 200, 800)) {
                boolean failed = tree.equals("2pl") && clients == 800;
                r.add(result(i++, values("tree", tree, "clients", Integer.toString(clients)),
                        tree.equals("2pl") ? 100 + clients / 10.0 : 1000 + clients, 0.125,
                        failed ? PointResult.Status.RUN_FAILED : PointResult.Status.OK));
            }
        }
        return r;
    }

    @Test
    void resultsCsvHasOneRowPerPoint() throws Exception {
        List<PointResult> r = fig47();
        r.set(1, result(2, values("tree", "2pl", "clients", "200"), 120, 0.5, PointResult.Status.CHECK_FAILED));
        ResultsCsv.write(tmp, List.of("tree", "clients"), r);
        List<String> lines = Files.readAllLines(tmp.resolve("results.csv"));
        assertEquals(7, lines.size());
        assertEquals("point,tree,clients,throughput,abortRate,p50Ms,p95Ms,p99Ms,committed,aborted,serializable,"
                + "consistency,status", lines.get(0));
        assertEquals("01_x,2pl,50,105.0,0.125000,1.250,4.500,,1050,7,true,,ok", lines.get(1));
        assertEquals("02_x,2pl,200,120.0,0.500000,1.250,4.500,,1200,7,true,,check-failed", lines.get(2));
        assertEquals("03_x,2pl,800,,,,,,,,,,run-failed", lines.get(3));
        assertEquals("06_x,tebaldi-3layer,800,1800.0,0.125000,1.250,4.500,,18000,7,true,,ok", lines.get(6));
    }

    @Test
    void resultsCsvQuotesCellsAndLeavesUnsweptKeysEmpty() {
        PointResult a = result(1, values("experiment", "a,b"), 1, 0, PointResult.Status.OK);
        PointResult b = result(2, values("experiment", "say \"hi\"", "clients", "5"), 2, 0, PointResult.Status.OK);
        String csv = ResultsCsv.render(List.of("experiment", "clients"), List.of(a, b));
        List<String> lines = csv.lines().toList();
        assertTrue(lines.get(1).startsWith("01_x,\"a,b\",,1.0,"), lines.get(1));
        assertTrue(lines.get(2).startsWith("02_x,\"say \"\"hi\"\"\",5,2.0,"), lines.get(2));
        assertTrue(csv.endsWith("\n"));
    }

    @Test
    void chartsPlotClientsWithOneSeriesPerTree() throws Exception {
        List<PointResult> r = fig47();
        assertEquals("clients", SweepCharts.xKey(List.of("tree", "clients"), r));
        assertEquals("tebaldi-3layer", SweepCharts.seriesName(r.get(4), List.of("tree", "clients"), "clients", "t"));
        assertEquals("t", SweepCharts.seriesName(r.get(4), List.of("clients"), "clients", "t"));
        Map<String, String> v = values("tree", "ssi", "warehouses", "4", "clients", "5");
        PointResult three = result(1, v, 1, 0, PointResult.Status.OK);
        assertEquals("tree=ssi, warehouses=4", SweepCharts.seriesName(three, List.copyOf(v.keySet()), "clients", ""));

        List<Path> files = SweepCharts.write(tmp, List.of("tree", "clients"), r, "tpcc-fig4-7");
        assertEquals(List.of(tmp.resolve("throughput.png"), tmp.resolve("abort-rate.png")), files);
        for (Path f : files) {
            assertTrue(ChartFiles.isPng(Files.readAllBytes(f)), f.toString());
            BufferedImage img = ImageIO.read(f.toFile());
            assertEquals(ChartFiles.WIDTH, img.getWidth());
            assertEquals(ChartFiles.HEIGHT, img.getHeight());
        }
    }

    @Test
    void aDurationKeyIsDrawnOnTheXAxisInMicroseconds() throws Exception {
        List<PointResult> r = new java.util.ArrayList<>();
        int i = 1;
        for (String commit : List.of("2pc", "epoch")) {
            for (String lat : List.of("1us", "100us", "2ms")) {
                r.add(result(i++, values("cluster.commit", commit, "durability.writeLatency", lat), 100 * i, 0.1,
                        PointResult.Status.OK));
            }
        }
        List<String> keys = List.of("cluster.commit", "durability.writeLatency");
        assertEquals("durability.writeLatency", SweepCharts.xKey(keys, r), "durations count as numbers");
        assertEquals("epoch", SweepCharts.seriesName(r.get(4), keys, "durability.writeLatency", "x"));
        List<Path> files = SweepCharts.write(tmp, keys, r, "coco-fig11");
        assertTrue(ChartFiles.isPng(Files.readAllBytes(files.get(0))));
        assertNull(SweepCharts.xKey(List.of("tree"), List.of(result(1, values("tree", "1 us later"), 1, 0,
                PointResult.Status.OK))), "a label that only contains a duration is not one");
    }

    @Test
    void chartsFallBackToBarsWithoutANumericKeyAndSkipUnmeasuredSweeps() throws Exception {
        List<PointResult> r = List.of(result(1, values("tree", "2pl"), 10, 0.1, PointResult.Status.OK),
                result(2, values("tree", "ssi"), 20, 0.2, PointResult.Status.OK));
        assertNull(SweepCharts.xKey(List.of("tree"), r));
        List<Path> files = SweepCharts.write(tmp, List.of("tree"), r, "bars");
        assertTrue(ChartFiles.isPng(Files.readAllBytes(files.get(0))));

        Path none = tmp.resolve("none");
        List<PointResult> failed = List.of(result(1, values("clients", "1"), 0, 0, PointResult.Status.RUN_FAILED));
        assertEquals(List.of(), SweepCharts.write(none, List.of("clients"), failed, "x"));
        assertTrue(!Files.exists(none.resolve("throughput.png")));
    }

    @Test
    void timelineChartIsAPng() throws Exception {
        List<TimelinePoint> t = new ArrayList<>();
        for (int i = 1; i <= 130; i++) {
            t.add(new TimelinePoint(i * 100L, 1000 + (i % 7) * 50));
        }
        Path f = tmp.resolve("timeline.png");
        TimelineChart.write(f, t, 3000, "tpcc-2pl");
        assertTrue(ChartFiles.isPng(Files.readAllBytes(f)));
        Path empty = tmp.resolve("empty.png");
        TimelineChart.write(empty, List.of(), 0, "nothing measured");
        assertTrue(ChartFiles.isPng(Files.readAllBytes(empty)));
        assertEquals("true", System.getProperty("java.awt.headless"));
    }
}
