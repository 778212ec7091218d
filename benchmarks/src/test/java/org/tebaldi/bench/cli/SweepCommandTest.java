package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.report.ChartFiles;

/** {@code tebaldi run} over a sweep, in-process, on the shipped bank experiment: files, progress, bad input. */
class SweepCommandTest {
    private static final Path BANK = Path.of("../config/experiments/bank-2pl.yaml");
    private static final Pattern TICK = Pattern.compile("\\[[#.]{20}] +\\d+% ETA \\d+s \\| point [12]/2 \\| "
            + "\\[\\ds/1s] measure +[\\d,]+ txn/s  abort \\d+\\.\\d%");

    @TempDir
    Path tmp;

    @Test
    void runsEveryPointAndWritesResultsAndCharts() throws Exception {
        Path dir = tmp.resolve("sweep");
        RunCommandTest.Run r = RunCommandTest.run("run", BANK.toString(), "--set", "clients=[1, 4]", "--set",
                "warmup=0s", "--set", "duration=1s", "--out", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("", r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("sweep of 2 point(s) over clients: at least 2s of warm-up and "
                + "measurement, plus loading and checks; results in " + dir), lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("=== point 1/2: clients=1   [")), r.out());
        assertEquals(2, lines.stream().filter(l -> TICK.matcher(l).matches()).count(), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("=== point 2/2 ok after \\d+s in total: [\\d,.]+ txn/s, "
                + "abort \\d+\\.\\d% -> 02_clients-4/ +\\[#{20}] 100% ETA 0s")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("sweep done in \\d+s: 2 point\\(s\\), 2 ok, 0 check-failed, "
                + "0 run-failed")), r.out());

        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(3, csv.size());
        assertEquals("point,clients,throughput,abortRate,p50Ms,p95Ms,p99Ms,committed,aborted,serializable,"
                + "consistency,status", csv.get(0));
        assertTrue(csv.get(1).matches("01_clients-1,1,[\\d.]+,[\\d.]+,[\\d.]+,[\\d.]+,[\\d.]+,\\d+,\\d+,true,true,ok"),
                csv.get(1));
        assertTrue(csv.get(2).startsWith("02_clients-4,4,"), csv.get(2));
        for (String chart : List.of("throughput.png", "abort-rate.png", "01_clients-1/timeline.png",
                "02_clients-4/timeline.png")) {
            assertTrue(ChartFiles.isPng(Files.readAllBytes(dir.resolve(chart))), chart);
        }
        JsonNode s = new ObjectMapper().readTree(Files.readString(dir.resolve("02_clients-4/summary.json")));
        assertEquals(4, s.get("config").get("clients").intValue());
        assertEquals(2, s.get("sweep").get("point").intValue());
        assertEquals("4", s.get("sweep").get("values").get("clients").textValue());
        assertTrue(Files.readString(dir.resolve("01_clients-1/timeline.csv")).startsWith("tMs,throughput\n"));
    }

    @Test
    void aBadSweepExitsTwoWithOneMessageAndWritesNothing() throws Exception {
        Path dir = tmp.resolve("never");
        RunCommandTest.Run r = RunCommandTest.run("run", BANK.toString(), "--set", "clients=[4, 0]", "--out",
                dir.toString());
        assertEquals(2, r.code());
        assertEquals("--set clients=[4, 0]: clients: must be at least 1, found 0. Fix: write e.g. clients: 50\n",
                r.err().replace("\r\n", "\n"));
        assertEquals("", r.out());
        assertFalse(Files.exists(dir));

        Path copy = tmp.resolve("copy.yaml");
        Files.writeString(copy, Files.readString(BANK).replace("../trees/", BANK.getParent().resolve("../trees/")
                .toAbsolutePath().normalize() + "/"));
        r = RunCommandTest.run("run", BANK.toString(), copy.toString(), "--out", dir.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("name: experiment name 'bank-2pl' is also the name in"), r.err());
        assertFalse(Files.exists(dir));
    }
}
