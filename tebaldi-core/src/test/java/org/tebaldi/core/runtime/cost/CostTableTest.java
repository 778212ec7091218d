package org.tebaldi.core.runtime.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;

/** {@link CostTable}: fit, YAML round trip, errors naming file and place, fallback costs. */
class CostTableTest {
    @TempDir
    Path tmp;

    private static HandlerProfile.Sums sums(long count, long nanosEach, int units) {
        HandlerProfile.Sums s = new HandlerProfile.Sums();
        for (int i = 0; i < count; i++) {
            s.add(units, nanosEach);
        }
        return s;
    }

    private static CostTable table() {
        Map<String, HandlerProfile.Sums> totals = HandlerProfile.newTotals();
        totals.put("tc ExecReply", sums(100, 3_000, 0));
        totals.put("ds ExecBatch", sums(50, 10_000, 4));
        totals.put("client timer", sums(10, 1_000, 0));
        // 160 handlers, 0.81 ms inside them, 2 ms of CPU: 7.4375 µs per message of overhead
        return CostTable.fit("t", Map.of("host", "h", "experiments", List.of("a", "b")), totals, 2_000_000, 2.5,
                40, Map.of("ExecReply", 35, "ExecBatch", 90));
    }

    @Test
    void fitChargesTheCpuOutsideHandlersPerMessage() {
        CostTable t = table();
        assertEquals(7.4375, t.perMessageMicros(), 1e-9);
        assertEquals(3.0, t.cost("tc ExecReply").baseMicros(), 1e-9);
        assertEquals(160L, t.calibration().get("handled"));
        assertEquals(90, t.bytes("ExecBatch"));
        assertEquals(40, t.bytes("Unknown"));
    }

    @Test
    void writeThenReadGivesTheSameTable() throws Exception {
        CostTable t = table();
        Path f = tmp.resolve("costs/t.yaml");
        t.write(f);
        CostTable back = CostTable.read(f);
        assertEquals(t.name(), back.name());
        assertEquals(t.handlers(), back.handlers());
        assertEquals(t.bytes(), back.bytes());
        assertEquals(t.defaultBytes(), back.defaultBytes());
        assertEquals(t.measuredScale(), back.measuredScale(), 1e-9);
        assertEquals(Math.round(t.perMessageMicros() * 1000) / 1000.0, back.perMessageMicros(), 1e-9);
        assertEquals(List.of("a", "b"), back.calibration().get("experiments"));
        assertEquals("h", back.calibration().get("host"));
    }

    @Test
    void aNegativeCostNamesFileAndPlace() throws Exception {
        Path f = tmp.resolve("bad.yaml");
        Files.writeString(f, """
                name: bad
                perMessageMicros: 1.5
                handlers:
                  tc ExecReply: {baseMicros: -2, perUnitMicros: 0}
                """);
        ConfigException x = assertThrows(ConfigException.class, () -> CostTable.read(f));
        assertTrue(x.getMessage().startsWith(f.toString() + ": handlers.tc ExecReply.baseMicros: "), x.getMessage());
        assertTrue(x.getMessage().contains("-2"), x.getMessage());
    }

    @Test
    void aFileThatIsNotACostTableIsRejected() throws Exception {
        Path f = tmp.resolve("list.yaml");
        Files.writeString(f, "- just\n- a list\n");
        ConfigException x = assertThrows(ConfigException.class, () -> CostTable.read(f));
        assertTrue(x.getMessage().startsWith(f.toString() + ": "), x.getMessage());
        Path missing = tmp.resolve("missing.yaml");
        ConfigException y = assertThrows(ConfigException.class, () -> CostTable.read(missing));
        assertTrue(y.getMessage().startsWith(missing + ": "), y.getMessage());
    }

    @Test
    void aMissingKeyCostsTheMeanOfItsRoleElseOfAll() {
        CostTable t = table();
        assertEquals(3.0, t.cost("tc Unknown").baseMicros(), 1e-9);
        double all = (100 * 3.0 + 50 * 10.0 + 10 * 1.0) / 160;
        assertEquals(all, t.cost("batch Unknown").baseMicros(), 1e-9);
        assertEquals(all, t.cost("tXYZ").baseMicros(), 1e-9, "a key without a role takes the mean of all");
    }
}
