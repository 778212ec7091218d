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
            s.add(units, 0, nanosEach);
        }
        return s;
    }

    private static CostTable table() {
        Map<String, HandlerProfile.Sums> totals = HandlerProfile.newTotals();
        totals.put("tc ExecReply", sums(1_000, 3_000, 0));
        totals.put("ds ExecBatch", sums(500, 10_000, 4));
        totals.put("client timer", sums(100, 1_000, 0));
        totals.put("ds timer/lock-timeout", sums(HandlerCost.MIN_SAMPLES - 1, 467_000, 0));
        Map<String, HandlerProfile.Sums> tpcc = HandlerProfile.newTotals();
        tpcc.put("tc ExecReply", sums(100, 5_000, 0));
        tpcc.put("tc CcEnvelope/Watch", sums(24, 30_000, 0));
        return CostTable.fit("t", Map.of("host", "h", "experiments", List.of("a", "b")), totals, Map.of("tpcc", tpcc),
                1.25, Map.of("tpcc", 1.5), 7.5, 20, Map.of("tpcc", 30.0), 40, Map.of("ExecReply", 35, "ExecBatch", 90, "CcEnvelope", 20));
    }

    @Test
    void fitKeepsTheOverheadsAndFitsEveryKey() {
        CostTable t = table();
        assertEquals(1.25, t.overhead(), 1e-9);
        assertEquals(3.0, t.cost("tc ExecReply").baseMicros(), 1e-9);
        assertEquals(90, t.bytes("ExecBatch"));
        assertEquals(40, t.bytes("Unknown"));
        assertEquals(20, t.bytes("CcEnvelope/Watch"), "an envelope without its own size takes the envelope's");
    }

    @Test
    void aKeyOfTooFewHandlersIsLeftOutAndChargedAsAMissingKey() {
        // 99 lock-wait time-outs (one GC pause inside one of them moves their mean): not kept; the role's mean instead
        CostTable t = table();
        assertTrue(!t.handlers().containsKey("ds timer/lock-timeout"), t.handlers().keySet().toString());
        assertEquals(10.0, t.cost("ds timer/lock-timeout").baseMicros(), 1e-9);
        assertTrue(!t.workloads().get("tpcc").containsKey("tc CcEnvelope/Watch"), "24 in one workload: not kept");
    }

    @Test
    void aWorkloadUsesItsOwnCostsWhereItHasThem() {
        CostTable t = table();
        assertEquals(5.0, t.forWorkload("tpcc").cost("tc ExecReply").baseMicros(), 1e-9);
        assertEquals(10.0, t.forWorkload("tpcc").cost("ds ExecBatch").baseMicros(), 1e-9, "pooled elsewhere");
        assertEquals(3.0, t.forWorkload("seats").cost("tc ExecReply").baseMicros(), 1e-9, "not calibrated: pooled");
        assertEquals(1.5, t.forWorkload("tpcc").overhead(), 1e-9);
        assertEquals(1.25, t.forWorkload("seats").overhead(), 1e-9);
        assertEquals(30, t.forWorkload("tpcc").lateMicros(), 1e-9);
        assertEquals(20, t.forWorkload("seats").lateMicros(), 1e-9);
    }

    @Test
    void writeThenReadGivesTheSameTable() throws Exception {
        CostTable t = table();
        Path f = tmp.resolve("costs/t.yaml");
        t.write(f);
        CostTable back = CostTable.read(f);
        assertEquals(t.name(), back.name());
        assertEquals(t.handlers(), back.handlers());
        assertEquals(t.workloads(), back.workloads());
        assertEquals(t.overheads(), back.overheads());
        assertEquals(t.wakeMicros(), back.wakeMicros(), 1e-9);
        assertEquals(t.lates(), back.lates());
        assertEquals(t.bytes(), back.bytes());
        assertEquals(t.defaultBytes(), back.defaultBytes());
        assertEquals(t.overhead(), back.overhead(), 1e-9);
        assertEquals(List.of("a", "b"), back.calibration().get("experiments"));
        assertEquals("h", back.calibration().get("host"));
    }

    @Test
    void aNegativeCostNamesFileAndPlace() throws Exception {
        Path f = tmp.resolve("bad.yaml");
        Files.writeString(f, """
                name: bad
                overhead: 1.5
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
        double all = (1_000 * 3.0 + 500 * 10.0 + 100 * 1.0) / 1_600;
        assertEquals(all, t.cost("batch Unknown").baseMicros(), 1e-9);
        assertEquals(all, t.cost("tXYZ").baseMicros(), 1e-9, "a key without a role takes the mean of all");
    }

    @Test
    void theHostIdentitySurvivesTheRoundTripAndEveryWorkloadView() throws Exception {
        HostIdentity h = HostIdentityTest.host("AMD EPYC 7B13", 461_234);
        Map<String, HandlerProfile.Sums> totals = HandlerProfile.newTotals();
        totals.put("tc ExecReply", sums(100, 3_000, 0));
        CostTable t = CostTable.fit("t", Map.of("host", h.toMap(), "verify", Map.of("a@50", "after")), totals,
                Map.of("tpcc", totals), 1.0, Map.of(), 0, 0, Map.of(), 40, Map.of());
        Path f = tmp.resolve("t.yaml");
        t.write(f);
        assertTrue(Files.readString(f).contains("cpuModel: \"AMD EPYC 7B13\""), Files.readString(f));
        CostTable back = CostTable.read(f);
        assertEquals(h, back.host().orElseThrow());
        assertEquals(h, back.forWorkload("tpcc").host().orElseThrow(), "a workload's view keeps the calibration");
        assertEquals(Map.of("a@50", "after"), back.calibration().get("verify"));
    }

    @Test
    void anOlderTableWithoutTheHostIdentityStillLoadsWithTheHostUnknown() throws Exception {
        Path f = tmp.resolve("old.yaml");
        Files.writeString(f, """
                name: old
                calibration: {date: "2026-11-25T14:52Z", host: vm, cores: 2, java: "17.0.15"}
                overhead: 1.2
                handlers:
                  tc ExecReply: {baseMicros: 2, perUnitMicros: 0}
                """);
        CostTable t = CostTable.read(f);
        assertTrue(t.host().isEmpty());
        assertEquals("vm", HostIdentity.recordedName(t.calibration()));
        Path none = tmp.resolve("none.yaml");
        Files.writeString(none, "name: none\noverhead: 1\nhandlers: {tc ExecReply: {baseMicros: 2}}\n");
        assertTrue(CostTable.read(none).host().isEmpty());
    }

    @Test
    void aBadHostEntryFailsWhenTheTableIsRead() throws Exception {
        Path f = tmp.resolve("badhost.yaml");
        Files.writeString(f, """
                name: badhost
                calibration:
                  host: {name: vm, cpuModel: AMD EPYC, cores: 2, os: Linux, java: "17", probe: {kernel: k}}
                overhead: 1.2
                handlers:
                  tc ExecReply: {baseMicros: 2, perUnitMicros: 0}
                """);
        ConfigException x = assertThrows(ConfigException.class, () -> CostTable.read(f));
        assertTrue(x.getMessage().startsWith(f + ": calibration.host.probe.nsPerIteration: expected a positive number, "
                + "found nothing"), x.getMessage());
    }
}
