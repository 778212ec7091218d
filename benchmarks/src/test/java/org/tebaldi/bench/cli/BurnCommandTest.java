package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.burn.BurnReport;
import org.tebaldi.bench.burn.Scenario;
import org.tebaldi.bench.burn.ScenarioFiles;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.tree.TreeSpec;

/**
 * {@code tebaldi burn}: a small campaign writes burn.csv (one row per seed) and burn.json and exits 0; a failing
 * scenario replays with exit 1 (shrinking: BurnScenarioTest); bad input is one message
 * with exit 2.
 */
class BurnCommandTest {
    @TempDir
    Path tmp;

    private String[] run(int expected, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(expected, code, out + "\n" + err);
        return new String[] {out.toString(), err.toString()};
    }

    @Test
    void aCampaignWritesOneRowPerSeedAndTheTotals() throws IOException {
        Path dir = tmp.resolve("b");
        String[] o = run(ExitCodes.OK, "burn", "--seeds", "4", "--first", "11", "--threads", "2", "--out",
                dir.toString());
        assertTrue(o[0].contains("burn: 4 seeds (11–14)"), o[0]);
        List<String> csv = Files.readAllLines(dir.resolve("burn.csv"));
        assertEquals(BurnReport.CSV_HEADER, csv.get(0));
        assertEquals(5, csv.size());
        assertTrue(csv.get(1).startsWith("11,") && csv.get(1).endsWith(",pass"), csv.get(1));
        assertTrue(Files.readString(dir.resolve("burn.json")).contains("\"seeds\" : 4"));
    }

    @Test
    void aFailingScenarioReplaysWithExitOne() throws IOException {
        TreeSpec broken = TreeSpec.leaf("nocc", "transfer", "audit");
        Path file = tmp.resolve("broken.json");
        ScenarioFiles.write(new Scenario(5, "bank", TreeLoader.toYaml(broken), 1, 2, 6, 15, false, List.of()), file);
        String[] o = run(ExitCodes.CHECK_FAILED, "burn", "--replay", file.toString());
        assertFalse(o[0].contains(" pass"), o[0]);
    }

    @Test
    void badInputIsOneMessage() throws IOException {
        Path file = tmp.resolve("bad.json");
        Files.writeString(file, "{\"seed\": 1, \"workload\": \"bank\"");
        String[] o = run(ExitCodes.CONFIG, "burn", "--replay", file.toString());
        assertTrue(o[1].startsWith(file + ":") && o[1].contains("not valid JSON"), o[1]);
        assertFalse(o[1].contains("\tat "), "no stack trace");
        o = run(ExitCodes.CONFIG, "burn", "--seed", "1", "--seeds", "3");
        assertTrue(o[1].contains("exactly one of"), o[1]);
    }
}
