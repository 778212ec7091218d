package org.tebaldi.core.runtime.cost;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tebaldi.core.config.ConfigException;

/**
 * The host a cost table was measured on, or the host a simulated run runs on (docs/simulation.md, "Calibration"):
 * its CPU model, cores, operating system, Java, and the {@link SpeedProbe}'s time. A table's handler costs are that
 * host's; {@link #compare} tells whether another host is like it. Written into a table as {@code calibration.host}
 * ({@link #toMap}) and into a simulated run's {@code summary.json}.
 *
 * @param name     host name ({@link InetAddress#getLocalHost()}, else {@code $HOSTNAME}, else {@code unknown})
 * @param cpuModel the CPU model: {@code /proc/cpuinfo}'s first {@code model name} (Linux), else its
 *                 {@code Hardware} line, else {@code "unknown (<os.name> <os.arch>)"}
 * @param cores    processors the JVM sees ({@link Runtime#availableProcessors()})
 * @param os       {@code os.name os.version os.arch}
 * @param java     {@code java.version (java.vm.name)}
 * @param probe    the speed probe measured on it
 */
public record HostIdentity(String name, String cpuModel, int cores, String os, String java, SpeedProbe.Result probe) {
    /**
     * A probe off by more than this fraction of the table's (either way) means another host, or this one much
     * busier than when it was calibrated: the repeats of one host on a quiet machine agree within a few percent.
     */
    public static final double PROBE_TOLERANCE = 0.25;

    private static volatile HostIdentity here;

    /** @throws IllegalArgumentException if a text is null or cores is below 1 */
    public HostIdentity {
        if (name == null || cpuModel == null || os == null || java == null || probe == null || cores < 1) {
            throw new IllegalArgumentException("incomplete host identity: " + name + ", " + cpuModel + ", " + cores
                    + ", " + os + ", " + java + ", " + probe);
        }
    }

    /**
     * This host, its probe measured once per JVM (the first call takes about half a second: {@link SpeedProbe}).
     */
    public static HostIdentity here() {
        HostIdentity h = here;
        if (h == null) {
            synchronized (HostIdentity.class) {
                h = here;
                if (h == null) {
                    h = measure();
                    here = h;
                }
            }
        }
        return h;
    }

    /** This host, with a fresh run of the probe. */
    public static HostIdentity measure() {
        return new HostIdentity(hostName(), cpuModel(Path.of("/proc/cpuinfo")), Runtime.getRuntime()
                .availableProcessors(), System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"), System.getProperty("java.version") + " ("
                + System.getProperty("java.vm.name") + ")", SpeedProbe.measure());
    }

    /**
     * The CPU model {@code cpuinfo} (a {@code /proc/cpuinfo}) names: its first {@code model name}, else its
     * {@code Hardware} line (some ARM kernels), else {@code "unknown (<os.name> <os.arch>)"} — also when the file
     * is missing (other operating systems).
     */
    static String cpuModel(Path cpuinfo) {
        List<String> lines;
        try {
            lines = Files.isReadable(cpuinfo) ? Files.readAllLines(cpuinfo) : List.of();
        } catch (IOException | RuntimeException e) {
            lines = List.of();
        }
        for (String key : List.of("model name", "Hardware")) {
            for (String line : lines) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key)) {
                    String v = line.substring(colon + 1).trim().replaceAll("\\s+", " ");
                    if (!v.isEmpty()) {
                        return v;
                    }
                }
            }
        }
        return "unknown (" + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")";
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            String h = System.getenv("HOSTNAME");
            return h != null && !h.isBlank() ? h : "unknown";
        }
    }

    /** The identity as a map, for a cost table's {@code calibration.host} or a JSON summary. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("cpuModel", cpuModel);
        m.put("cores", cores);
        m.put("os", os);
        m.put("java", java);
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("kernel", probe.kernel());
        p.put("nsPerIteration", round(probe.nsPerIteration()));
        p.put("minNs", round(probe.minNs()));
        p.put("maxNs", round(probe.maxNs()));
        p.put("repeats", probe.repeats());
        p.put("iterations", probe.iterations());
        p.put("checksum", probe.checksum());
        m.put("probe", p);
        return m;
    }

    /** Whole ns: the repeats of one host differ by far more. */
    private static double round(double v) {
        return Math.round(v);
    }

    /**
     * The host recorded in a cost table's {@code calibration} map: empty when it records none or only a host name
     * (tables written before the CPU model and probe were recorded).
     *
     * @param file the table's file, for the message
     * @throws ConfigException naming the file and the place if {@code calibration.host} is a mapping with a missing
     *                         or bad field
     */
    public static Optional<HostIdentity> fromCalibration(String file, Map<String, Object> calibration) {
        Object h = calibration.get("host");
        if (!(h instanceof Map<?, ?> m)) {
            return Optional.empty();
        }
        Object p = m.get("probe");
        if (!(p instanceof Map<?, ?> probe)) {
            throw bad(file, "calibration.host.probe", p, "a mapping (kernel, nsPerIteration, ...)");
        }
        double ns = positive(file, "calibration.host.probe.nsPerIteration", probe.get("nsPerIteration"));
        Object min = probe.get("minNs");
        Object max = probe.get("maxNs");
        SpeedProbe.Result r = new SpeedProbe.Result(text(file, "calibration.host.probe.kernel", probe.get("kernel")),
                ns, min == null ? ns : positive(file, "calibration.host.probe.minNs", min),
                max == null ? ns : positive(file, "calibration.host.probe.maxNs", max),
                (int) positive(file, "calibration.host.probe.repeats", probe.get("repeats")),
                (int) positive(file, "calibration.host.probe.iterations", probe.get("iterations")),
                probe.get("checksum") instanceof Number c ? c.longValue() : 0);
        if (r.maxNs() < r.minNs()) {
            throw bad(file, "calibration.host.probe.maxNs", r.maxNs(), "a time at least minNs (" + r.minNs() + ")");
        }
        return Optional.of(new HostIdentity(text(file, "calibration.host.name", m.get("name")),
                text(file, "calibration.host.cpuModel", m.get("cpuModel")),
                (int) positive(file, "calibration.host.cores", m.get("cores")),
                text(file, "calibration.host.os", m.get("os")), text(file, "calibration.host.java", m.get("java")), r));
    }

    /**
     * The host name a cost table's {@code calibration.host} records, whether a full identity or (older tables) a
     * name only; null if none.
     */
    public static String recordedName(Map<String, Object> calibration) {
        Object h = calibration.get("host");
        if (h instanceof Map<?, ?> m) {
            return m.get("name") == null ? null : m.get("name").toString();
        }
        return h == null ? null : h.toString();
    }

    private static String text(String file, String place, Object v) {
        if (v == null || v.toString().isBlank()) {
            throw bad(file, place, v, "a text");
        }
        return v.toString();
    }

    private static double positive(String file, String place, Object v) {
        if (!(v instanceof Number n) || !(n.doubleValue() > 0)) {
            throw bad(file, place, v, "a positive number");
        }
        return n.doubleValue();
    }

    private static ConfigException bad(String file, String place, Object v, String expected) {
        return new ConfigException(file, 0, place, "expected " + expected + ", found " + (v == null ? "nothing" : v),
                "run scripts/tebaldi calibrate --out " + file + " (it records the host)");
    }

    /**
     * How {@code here} compares with {@code table} (the host a cost table was measured on).
     *
     * @param sameCpuModel whether the CPU models are equal
     * @param probeRatio   here's probe time / the table's (above 1: this host is slower); NaN when the kernels differ
     * @param table        the table's host
     * @param here         this host
     */
    public record Comparison(boolean sameCpuModel, double probeRatio, HostIdentity table, HostIdentity here) {
        /** Whether the probes were taken with the same kernel. */
        public boolean probeComparable() {
            return !Double.isNaN(probeRatio);
        }

        /** Whether the probe differs by more than {@link #PROBE_TOLERANCE}. */
        public boolean probeDiffers() {
            return probeComparable() && Math.abs(probeRatio - 1) > PROBE_TOLERANCE;
        }

        /** Whether the table was measured on another host: another CPU model, or a probe off by more than 25%. */
        public boolean otherHost() {
            return !sameCpuModel || probeDiffers();
        }
    }

    /** Compares {@code here} with {@code table}. */
    public static Comparison compare(HostIdentity table, HostIdentity here) {
        double ratio = table.probe().kernel().equals(here.probe().kernel())
                ? here.probe().nsPerIteration() / table.probe().nsPerIteration() : Double.NaN;
        return new Comparison(table.cpuModel().equals(here.cpuModel()), ratio, table, here);
    }
}
