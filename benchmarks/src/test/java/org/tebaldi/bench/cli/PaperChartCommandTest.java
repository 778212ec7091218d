package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.report.ChartFiles;

/** {@code tebaldi paper-chart}: the best point per experiment beside the paper's number, a chart per figure. */
class PaperChartCommandTest {
    @TempDir
    Path tmp;

    private void summary(String dir, String name, int clients, double tput) throws Exception {
        Path d = tmp.resolve("runs").resolve(dir);
        Files.createDirectories(d);
        Files.writeString(d.resolve("summary.json"), "{\"name\": \"" + name + "\", \"throughput\": " + tput
                + ", \"config\": {\"clients\": " + clients + "}}");
    }

    @Test
    void keepsTheBestPointAndDrawsEachFigure() throws Exception {
        summary("a", "cluster-x-2pl", 200, 1000);
        summary("b", "cluster-x-2pl", 800, 1500);
        summary("c", "cluster-x-3layer", 800, 6000);
        Path paper = tmp.resolve("paper.csv");
        Files.writeString(paper, "# comment\nfigure,experiment,paper_txn_s,source\nx,cluster-x-2pl,2000,s\n"
                + "x,cluster-x-3layer,20000,s\ny,cluster-y-none,10,s\n");
        Path out = tmp.resolve("out");
        RunCommandTest.Run r = RunCommandTest.run("paper-chart", tmp.resolve("runs").toString(), "--paper",
                paper.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        List<String> csv = Files.readAllLines(out.resolve("predictions.csv"));
        assertEquals("x,cluster-x-2pl,800,1500.0,2000,1.00,1.00", csv.get(1));
        assertEquals("x,cluster-x-3layer,800,6000.0,20000,4.00,10.00", csv.get(2));
        assertEquals("y,cluster-y-none,,,10,,1.00", csv.get(3), "not run: empty cells");
        assertTrue(ChartFiles.isPng(Files.readAllBytes(out.resolve("cluster-x.png"))));
        assertTrue(Files.exists(out.resolve("cluster-y.png")));
    }

    @Test
    void anUnreadablePaperFileIsOneMessage() {
        RunCommandTest.Run r = RunCommandTest.run("paper-chart", tmp.toString(), "--paper",
                tmp.resolve("missing.csv").toString());
        assertEquals(ExitCodes.CONFIG, r.code());
        assertTrue(r.err().contains("missing.csv") && r.err().contains("Fix:"), r.err());
    }
}
