package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --ui [PORT]} on the command line: a run with it prints the live view's loopback address and runs as
 * without; a port out of range, a sweep, a simulated experiment and a taken port are each one clear message that
 * runs nothing and writes nothing.
 */
class UiOptionsTest {
    private static final Path BANK = Path.of("../config/experiments/bank-2pl.yaml");

    @TempDir
    Path tmp;

    @Test
    void aRunWithTheLiveViewPrintsItsAddress() {
        Path dir = tmp.resolve("run");
        // --ui without a port right before the experiment file leaves the file to the command
        RunCommandTest.Run r = RunCommandTest.run("run", "--ui", BANK.toString(), "--set", "duration=1s", "--set",
                "warmup=0s", "--out", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("live view: http://127\\.0\\.0\\.1:\\d+/ \\(read-only, "
                + "this machine only\\)")), r.out());
        assertTrue(Files.exists(dir.resolve("summary.json")));
    }

    @Test
    void badUsesAreOneClearMessage() throws Exception {
        RunCommandTest.Run r = RunCommandTest.run("run", BANK.toString(), "--ui", "70000", "--out",
                tmp.resolve("a").toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--ui") && r.err().contains("out of range"), r.err());

        r = RunCommandTest.run("run", BANK.toString(), "--ui=-1", "--out", tmp.resolve("a").toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("out of range"), r.err());

        r = RunCommandTest.run("run", BANK.toString(), "--set", "clients=[1,2]", "--ui", "--out",
                tmp.resolve("b").toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("not a sweep"), r.err());

        r = RunCommandTest.run("run", BANK.toString(), "--set", "cluster.mode=simulated", "--set",
                "cluster.simulation.costs=" + Path.of("../config/costs/this-machine.yaml").toAbsolutePath(), "--ui", "--out",
                tmp.resolve("c").toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--ui") && r.err().contains("simulated"), r.err());

        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            r = RunCommandTest.run("tune", BANK.toString(), "--ui", String.valueOf(taken.getLocalPort()), "--out",
                    tmp.resolve("d").toString());
            assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
            assertTrue(r.err().startsWith("--ui: cannot listen on 127.0.0.1:" + taken.getLocalPort()), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        }
        for (String d : new String[] {"a", "b", "c", "d"}) {
            assertFalse(Files.exists(tmp.resolve(d)), d);
        }
    }
}
