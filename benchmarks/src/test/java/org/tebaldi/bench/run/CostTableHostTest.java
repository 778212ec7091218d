package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.HandlerCost;
import org.tebaldi.core.runtime.cost.HostIdentity;
import org.tebaldi.core.runtime.cost.SpeedProbe;

/**
 * {@link CostTableHost}: a table measured on a host like this one gives no warning; another CPU model or a probe
 * off by more than 25% gives one WARNING line naming both hosts and the command that recalibrates; a table without
 * a host identity gives a note that the host is unknown. And {@link SimulatedExperimentRun#verifyNote}.
 */
class CostTableHostTest {
    static final Path FILE = Path.of("config/costs/lab.yaml");

    static HostIdentity host(String name, String model, double probeNs) {
        return new HostIdentity(name, model, 2, "Linux 6 amd64", "17.0.15 (OpenJDK 64-Bit Server VM)",
                new SpeedProbe.Result(SpeedProbe.KERNEL, probeNs, probeNs, probeNs, 5, 150, 42));
    }

    static CostTable table(Map<String, Object> calibration) {
        return new CostTable("lab", calibration, 1.0, 128, Map.of(), Map.of("tc ExecReply", new HandlerCost(2, 0, 0)))
                .forWorkload("tpcc");
    }

    static CostTable measuredOn(HostIdentity h) {
        return table(Map.of("host", h.toMap()));
    }

    @Test
    void aTableOfAHostLikeThisOneGivesNoWarning() {
        CostTableHost c = CostTableHost.check(measuredOn(host("lab1", "AMD EPYC", 400_000)), FILE,
                host("lab2", "AMD EPYC", 440_000));
        assertEquals(Boolean.FALSE, c.otherHost());
        assertFalse(c.line().contains("WARNING"), c.line());
        assertTrue(c.line().startsWith("cost table 'lab' (config/costs/lab.yaml) was measured on a host like this one"),
                c.line());
        assertEquals("AMD EPYC", c.tableHost().get("cpuModel"));
        assertEquals("lab2", c.here().get("name"));
    }

    @Test
    void anotherCpuModelGivesOneWarningLineWithTheRecalibrateCommand() {
        CostTableHost c = CostTableHost.check(measuredOn(host("lab1", "AMD EPYC", 400_000)), FILE,
                host("Build Box", "Intel(R) Xeon(R) CPU E5-2660", 400_000));
        assertEquals(Boolean.TRUE, c.otherHost());
        assertEquals(1, c.line().lines().count());
        assertTrue(c.line().startsWith("WARNING: cost table 'lab' (config/costs/lab.yaml) was measured on another host "
                + "— 'lab1', CPU 'AMD EPYC', probe 400,000 ns/iteration; this host: 'Build Box', CPU 'Intel(R) Xeon(R) "
                + "CPU E5-2660', probe 400,000 ns/iteration (1.00x the table's time; another CPU model). Its throughput "
                + "predictions are scaled to that host, not this one"), c.line());
        assertTrue(c.line().endsWith("recalibrate here: scripts/tebaldi calibrate --out config/costs/build-box.yaml, "
                + "then point the experiment's cluster.simulation.costs at it (or --set "
                + "cluster.simulation.costs=config/costs/build-box.yaml)"), c.line());
    }

    @Test
    void aProbeOffByMoreThan25PercentGivesTheWarningToo() {
        CostTableHost slower = CostTableHost.check(measuredOn(host("lab1", "AMD EPYC", 400_000)), FILE,
                host("lab1", "AMD EPYC", 600_000));
        assertEquals(Boolean.TRUE, slower.otherHost());
        assertTrue(slower.line().startsWith("WARNING: cost table 'lab' (config/costs/lab.yaml) was measured on another "
                + "host — "), slower.line());
        assertTrue(slower.line().contains("probe 600,000 ns/iteration (1.50x the table's time; same CPU model: another "
                + "machine of that model, or this one busier or quieter than when the table was measured)"),
                slower.line());
        assertTrue(slower.line().contains("scripts/tebaldi calibrate --out config/costs/lab1.yaml"), slower.line());
        CostTableHost faster = CostTableHost.check(measuredOn(host("lab1", "AMD EPYC", 400_000)), FILE,
                host("lab1", "AMD EPYC", 200_000));
        assertTrue(faster.line().startsWith("WARNING: ") && faster.line().contains("(0.50x the table's time; same CPU"),
                faster.line());
        CostTableHost within = CostTableHost.check(measuredOn(host("lab1", "AMD EPYC", 400_000)), FILE,
                host("lab1", "AMD EPYC", 310_000));
        assertEquals(Boolean.FALSE, within.otherHost(), within.line());
        assertTrue(within.line().endsWith("(0.78x the table's time)"), within.line());
    }

    @Test
    void aTableWithoutAHostIdentityGetsANoteThatTheHostIsUnknown() {
        CostTableHost c = CostTableHost.check(table(Map.of("host", "vm", "cores", 2)), FILE,
                host("lab1", "AMD EPYC", 400_000));
        assertNull(c.otherHost());
        assertNull(c.tableHost());
        assertEquals("lab1", c.here().get("name"));
        assertTrue(c.line().startsWith("NOTE: cost table 'lab' (config/costs/lab.yaml) records no CPU model or speed "
                + "probe (it was written before calibrate recorded them; host name 'vm'), so the host it was measured "
                + "on is unknown"), c.line());
        assertTrue(c.line().contains("scripts/tebaldi calibrate --out config/costs/lab1.yaml"), c.line());
        assertFalse(CostTableHost.check(table(Map.of()), FILE, host("lab1", "AMD EPYC", 1)).line()
                .contains("host name"));
    }

    @Test
    void aHostWithoutAUsableNameIsSuggestedThisHost() {
        assertEquals("this-host", CostTableHost.suggestedName(host("unknown", "m", 1)));
        assertEquals("this-host", CostTableHost.suggestedName(host("localhost", "m", 1)));
        assertEquals("ci-runner-7.example.org", CostTableHost.suggestedName(host("CI_Runner 7.example.org", "m", 1)));
    }

    @Test
    void theVerifyNoteTellsATableOfOtherVerificationApart() {
        Map<String, Object> on = new LinkedHashMap<>(Map.of("verify", Map.of("a@50", "after", "a@200", "after")));
        assertNull(SimulatedExperimentRun.verifyNote(table(on), true));
        assertTrue(SimulatedExperimentRun.verifyNote(table(on), false).startsWith("NOTE: cost table 'lab' was "
                + "calibrated with verification on"));
        Map<String, Object> off = Map.of("verify", Map.of("a@50", "off"));
        assertNull(SimulatedExperimentRun.verifyNote(table(off), false));
        assertTrue(SimulatedExperimentRun.verifyNote(table(off), true).contains("calibrated with verification off"));
        assertTrue(SimulatedExperimentRun.verifyNote(table(Map.of()), true).contains("verification off"),
                "older tables were calibrated with verification off");
        assertNull(SimulatedExperimentRun.verifyNote(table(Map.of()), false));
        assertTrue(SimulatedExperimentRun.verifyNote(table(Map.of("verify", Map.of("a@50", "off", "b@50", "after"))),
                true).contains("with and without verification"));
    }
}
