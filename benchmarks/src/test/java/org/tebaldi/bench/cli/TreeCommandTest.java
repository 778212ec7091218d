package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.view.Graphviz;

/** {@code tebaldi tree}: a tree file, an experiment sweeping trees, and bad input (exit 2, nothing written). */
class TreeCommandTest {
    private static final Path THREE_LAYER = Path.of("../config/trees/tebaldi-3layer.yaml");

    @TempDir
    Path tmp;

    @Test
    void printsATreeFileAndWritesItsDotSource() throws Exception {
        Path out = tmp.resolve("d/three.dot");
        RunCommandTest.Run r = RunCommandTest.run("tree", THREE_LAYER.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("""
                ssi
                ├─ none  [order_status, stock_level]
                └─ 2pl
                   ├─ rp  [new_order, payment]
                   └─ rp  [delivery]
                """), r.out());
        assertTrue(r.out().endsWith("wrote " + out + "\n"), r.out());
        String dot = Files.readString(out);
        assertEquals(4, dot.lines().filter(l -> l.contains(" -> ")).count(), dot);
    }

    @Test
    void anExperimentSweepingTreesGetsOneDiagramPerTree() throws Exception {
        try {
            Graphviz.dot();
        } catch (Graphviz.Unavailable x) {
            org.junit.jupiter.api.Assumptions.abort("Graphviz unavailable: " + x.getMessage());
        }
        Path exp = tmp.resolve("sweep.yaml");
        Files.writeString(exp, """
                name: trees
                workload: {name: bank, accounts: 4}
                tree: [{root: {cc: 2pl, txns: [transfer, audit]}},
                       {root: {cc: ssi, children: [{cc: none, txns: [audit]}, {cc: 2pl, txns: [transfer]}]}}]
                clients: 2
                duration: 1s
                """);
        Path out = tmp.resolve("t.svg");
        RunCommandTest.Run r = RunCommandTest.run("tree", exp.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("1. trees (inline tree) tree=") && r.out().contains("2. trees (inline tree)"),
                r.out());
        assertTrue(r.out().contains("└─ 2pl  [transfer]"), r.out());
        assertTrue(Files.readString(tmp.resolve("t-1.svg")).contains("<svg"));
        assertTrue(Files.readString(tmp.resolve("t-2.svg")).contains(">ssi<"));
        assertFalse(Files.exists(out));
    }

    @Test
    void badInputIsOneMessageAndExitTwo() throws Exception {
        Path notTree = tmp.resolve("x.yaml");
        Files.writeString(notTree, "foo: 1\n");
        Path badTree = tmp.resolve("bad.yaml");
        Files.writeString(badTree, "root: {cc: nosuchcc, txns: [a]}\n");
        String[][] cases = {
            {"tree", tmp.resolve("missing.yaml").toString(), "no such file. Fix: name a tree file"},
            {"tree", notTree.toString(), "neither a CC tree (a 'root:' mapping) nor an experiment"},
            {"tree", badTree.toString(), "nosuchcc"},
            {"tree", THREE_LAYER.toString(), "--out", tmp.resolve("x.pdf").toString(), "no known diagram extension"},
        };
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOf(c, c.length - 1);
            RunCommandTest.Run r = RunCommandTest.run(args);
            assertEquals(ExitCodes.CONFIG, r.code(), String.join(" ", args) + ": " + r.out() + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains(c[c.length - 1]), r.err());
            assertEquals("", r.out());
        }
        try (var files = Files.list(tmp)) {
            assertEquals(2, files.count(), "nothing written");
        }
    }
}
