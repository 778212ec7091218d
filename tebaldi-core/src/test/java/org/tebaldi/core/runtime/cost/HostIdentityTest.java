package org.tebaldi.core.runtime.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;

/** {@link HostIdentity}: the CPU model from cpuinfo, the map round trip, the comparison of two hosts. */
class HostIdentityTest {
    @TempDir
    Path tmp;

    static HostIdentity host(String model, double probeNs) {
        return new HostIdentity("h", model, 2, "Linux 6 amd64", "17.0.15 (OpenJDK 64-Bit Server VM)",
                new SpeedProbe.Result(SpeedProbe.KERNEL, probeNs, Math.round(probeNs * 0.95),
                        Math.round(probeNs * 1.1), 5, 150, 42)); // whole ns, as a table records them
    }

    @Test
    void theCpuModelIsTheFirstModelNameElseTheHardwareLineElseTheOs() throws Exception {
        Path x86 = tmp.resolve("x86");
        Files.writeString(x86, "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 1\n"
                + "model name\t: AMD EPYC  7B13 64-Core Processor\nprocessor\t: 1\nmodel name\t: other\n");
        assertEquals("AMD EPYC 7B13 64-Core Processor", HostIdentity.cpuModel(x86), "first, spaces collapsed");
        Path arm = tmp.resolve("arm");
        Files.writeString(arm, "processor\t: 0\nBogoMIPS\t: 48.00\nHardware\t: BCM2835\n");
        assertEquals("BCM2835", HostIdentity.cpuModel(arm));
        String fallback = HostIdentity.cpuModel(tmp.resolve("missing"));
        assertEquals("unknown (" + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")",
                fallback);
    }

    @Test
    void thisHostIsMeasuredOncePerJvm() {
        HostIdentity h = HostIdentity.here();
        assertTrue(h.cores() >= 1);
        assertFalse(h.cpuModel().isBlank());
        assertTrue(h.probe().nsPerIteration() > 0);
        assertTrue(h == HostIdentity.here(), "cached");
    }

    @Test
    void theMapRoundTripKeepsEveryField() {
        HostIdentity h = host("AMD EPYC", 460_000);
        Map<String, Object> cal = new LinkedHashMap<>();
        cal.put("host", h.toMap());
        HostIdentity back = HostIdentity.fromCalibration("t.yaml", cal).orElseThrow();
        assertEquals(h, back);
        assertEquals("h", HostIdentity.recordedName(cal));
    }

    @Test
    void aTableWithoutAnIdentityHasNoHostButMayHaveAName() {
        assertEquals(Optional.empty(), HostIdentity.fromCalibration("t.yaml", Map.of()));
        assertEquals(Optional.empty(), HostIdentity.fromCalibration("t.yaml", Map.of("host", "vm")));
        assertEquals("vm", HostIdentity.recordedName(Map.of("host", "vm")));
        assertEquals(null, HostIdentity.recordedName(Map.of()));
    }

    @Test
    void aBadIdentityNamesTheFileAndThePlace() {
        Map<String, Object> m = new LinkedHashMap<>(host("AMD EPYC", 460_000).toMap());
        @SuppressWarnings("unchecked")
        Map<String, Object> probe = new LinkedHashMap<>((Map<String, Object>) m.get("probe"));
        probe.put("nsPerIteration", -3);
        m.put("probe", probe);
        ConfigException x = assertThrows(ConfigException.class,
                () -> HostIdentity.fromCalibration("costs/t.yaml", Map.of("host", m)));
        assertTrue(x.getMessage().startsWith("costs/t.yaml: calibration.host.probe.nsPerIteration: expected a positive "
                + "number, found -3. Fix: run scripts/tebaldi calibrate --out costs/t.yaml"), x.getMessage());
        m.remove("cpuModel");
        m.put("probe", host("x", 1).toMap().get("probe"));
        x = assertThrows(ConfigException.class, () -> HostIdentity.fromCalibration("t.yaml", Map.of("host", m)));
        assertTrue(x.getMessage().contains("calibration.host.cpuModel: expected a text, found nothing"),
                x.getMessage());
    }

    @Test
    void sameModelAndAProbeWithin25PercentIsTheSameHost() {
        HostIdentity.Comparison c = HostIdentity.compare(host("AMD EPYC", 400_000), host("AMD EPYC", 480_000));
        assertTrue(c.sameCpuModel());
        assertEquals(1.2, c.probeRatio(), 1e-9);
        assertFalse(c.probeDiffers());
        assertFalse(c.otherHost());
        assertFalse(HostIdentity.compare(host("AMD EPYC", 400_000), host("AMD EPYC", 320_000)).otherHost(), "0.80x");
    }

    @Test
    void anotherModelOrAProbeOffByMoreThan25PercentIsAnotherHost() {
        HostIdentity.Comparison model = HostIdentity.compare(host("AMD EPYC", 400_000),
                host("Intel(R) Xeon(R) CPU E5-2660", 400_000));
        assertFalse(model.sameCpuModel());
        assertFalse(model.probeDiffers());
        assertTrue(model.otherHost());
        HostIdentity.Comparison slower = HostIdentity.compare(host("AMD EPYC", 400_000), host("AMD EPYC", 520_000));
        assertTrue(slower.probeDiffers() && slower.otherHost(), "1.30x");
        HostIdentity.Comparison faster = HostIdentity.compare(host("AMD EPYC", 400_000), host("AMD EPYC", 280_000));
        assertTrue(faster.probeDiffers() && faster.otherHost(), "0.70x");
    }

    @Test
    void probesOfAnotherKernelAreNotCompared() {
        HostIdentity old = new HostIdentity("h", "AMD EPYC", 2, "os", "17", new SpeedProbe.Result("old-kernel", 10,
                10, 10, 1, 1, 0));
        HostIdentity.Comparison c = HostIdentity.compare(old, host("AMD EPYC", 400_000));
        assertFalse(c.probeComparable());
        assertFalse(c.probeDiffers());
        assertFalse(c.otherHost(), "same model, probe not comparable");
    }
}
