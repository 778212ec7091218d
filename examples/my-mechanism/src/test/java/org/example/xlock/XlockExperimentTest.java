package org.example.xlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.tebaldi.bench.cli.Main;

/**
 * The xlock mechanism in an experiment, as {@code scripts/tebaldi run} runs one: the bank workload on an embedded
 * cluster for two seconds with verification on (experiment/bank-xlock.yaml); its summary.json reports committed
 * transactions, a serializable history and the bank total kept.
 */
class XlockExperimentTest {
    @Test
    void runsAnExperiment() throws Exception {
        Path out = Path.of("target", "run-bank-xlock");
        StringWriter console = new StringWriter();
        int code = Main.execute(new String[] {"run", "experiment/bank-xlock.yaml", "--out", out.toString()},
                new PrintWriter(console, true), new PrintWriter(console, true));
        assertEquals(0, code, console::toString);
        JsonNode s = new ObjectMapper().readTree(Files.readString(out.resolve("summary.json")));
        assertTrue(s.get("committed").asLong() > 0, s::toString);
        assertTrue(s.get("checks").get("serializable").asBoolean(), () -> s.get("checks").toString());
        assertTrue(s.get("checks").get("consistency").asBoolean(), () -> s.get("checks").toString());
        System.out.printf("bank-xlock: %.1f txn/s, %d committed, abort rate %.3f%n", s.get("throughput").asDouble(),
                s.get("committed").asLong(), s.get("abortRate").asDouble());
    }
}
