package org.tebaldi.bench.cli;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.run.HandlerCalibration;
import org.tebaldi.bench.run.MessageSizes;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.HandlerProfile;

/**
 * What {@link CalibrateCommand} sums over its runs (docs/simulation.md, "Calibration"): the handler sums by key, the
 * JVM's CPU time over the measured windows, the encoded sizes of the sampled messages, and the calibration
 * metadata written into the table.
 */
final class CalibrationTotals {
    /** Size of a message class no sample was encoded for, bytes (the table's {@code defaultBytes} then). */
    static final int FALLBACK_BYTES = 128;

    private final String warmup;
    private final String duration;
    private final Map<String, HandlerProfile.Sums> handlers = HandlerProfile.newTotals();
    private final MessageSizes sizes = new MessageSizes(CodecRegistry.classPath());
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> clients = new LinkedHashMap<>();
    private long cpuNanos;
    private double handlerNanos;

    /** @param warmup, duration as given on the command line (written into the metadata) */
    CalibrationTotals(String warmup, String duration) {
        this.warmup = warmup;
        this.duration = duration;
    }

    /** Adds one finished run: its handler sums and samples, and the JVM's CPU time over its window, ms. */
    void add(Experiment e, HandlerCalibration run, long processCpuMs) {
        names.add(e.name());
        clients.put(e.name(), e.clients());
        run.totals().forEach((k, s) -> handlers.computeIfAbsent(k, x -> new HandlerProfile.Sums()).addAll(s));
        sizes.add(run.samples());
        cpuNanos += processCpuMs * 1_000_000;
        handlerNanos += run.handlerNanos();
    }

    /** The table fitted from every run added. */
    CostTable fit(String name) {
        Map<String, Object> cal = new LinkedHashMap<>();
        cal.put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
        cal.put("host", host());
        cal.put("cores", Runtime.getRuntime().availableProcessors());
        cal.put("java", System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")");
        cal.put("experiments", List.copyOf(names));
        cal.put("clients", new LinkedHashMap<>(clients));
        cal.put("warmup", warmup);
        cal.put("duration", duration);
        // measuredScale: by how much the JVM's CPU time over the measured windows exceeds the time spent inside
        // handlers (queues, timers, the driver, the garbage collector, idle spinning of the workers all add to
        // it); the simulation scales a handler's own measured time by it in measured mode.
        double scale = handlerNanos > 0 ? cpuNanos / handlerNanos : 1.0;
        Map<String, Integer> bytes = sizes.averages();
        return CostTable.fit(name, cal, handlers, cpuNanos, scale, typicalBytes(bytes), bytes);
    }

    /**
     * The size of a message of a class not measured: the mean size of the measured classes weighted by how many of
     * each were handled (a few huge result messages do not make every message large), bytes.
     */
    private int typicalBytes(Map<String, Integer> bytes) {
        double sum = 0;
        long n = 0;
        for (Map.Entry<String, HandlerProfile.Sums> e : handlers.entrySet()) {
            Integer b = bytes.get(e.getKey().substring(e.getKey().indexOf(' ') + 1));
            if (b != null) {
                sum += (double) b * e.getValue().count;
                n += e.getValue().count;
            }
        }
        return n == 0 ? sizes.overall(FALLBACK_BYTES) : (int) Math.round(sum / n);
    }

    /** Prints where the table went and its ten costliest handler keys (by total time). */
    void report(PrintWriter out, CostTable t, Path file) {
        out.printf("wrote %s: %d handler keys, %d message sizes, perMessage %.3f µs, measuredScale %.3f%n", file,
                t.handlers().size(), t.bytes().size(), t.perMessageMicros(), t.measuredScale());
        List<String> local = sizes.local();
        if (!local.isEmpty()) {
            out.println("no wire codec (never sent between JVMs): " + String.join(", ", local));
        }
        out.println("costliest handlers (total ms, count, base µs + per-unit µs):");
        handlers.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, HandlerProfile.Sums> x) -> -x.getValue().nanos))
                .limit(10)
                .forEach(x -> out.printf("  %-32s %,9.0f ms %,12d  %8.3f + %.3f%n", x.getKey(),
                        x.getValue().nanos / 1e6, x.getValue().count, t.cost(x.getKey()).baseMicros(),
                        t.cost(x.getKey()).perUnitMicros()));
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException x) {
            String h = System.getenv("HOSTNAME");
            return h != null ? h : "unknown";
        }
    }
}
