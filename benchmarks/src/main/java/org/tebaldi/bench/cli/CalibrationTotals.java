package org.tebaldi.bench.cli;

import java.io.PrintWriter;
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
import org.tebaldi.core.runtime.cost.HandlerCost;
import org.tebaldi.core.runtime.cost.HandlerProfile;
import org.tebaldi.core.runtime.cost.HostIdentity;
import org.tebaldi.core.runtime.cost.TreeCosts;

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
    private final HostIdentity host;
    private final Map<String, HandlerProfile.Sums> handlers = HandlerProfile.newTotals();
    private final MessageSizes sizes = new MessageSizes(CodecRegistry.classPath());
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> clients = new LinkedHashMap<>();
    private final Map<String, String> verify = new LinkedHashMap<>();
    private long cpuNanos;
    private double handlerNanos;
    /** Per run: its workload, handler sums and CPU time (ns). */
    private final List<Run> runs = new ArrayList<>();
    private final Map<String, Map<String, HandlerProfile.Sums>> perWorkload = new LinkedHashMap<>();

    private record Run(String label, String workload, String tree, String shape,
                       Map<String, HandlerProfile.Sums> sums, long cpuNanos, long idle, double lateMicros) {
        /** The group of its tree's section: workload and canonical tree. */
        String treeKey() {
            return workload + "\n" + tree;
        }

        long handled() {
            return sums.values().stream().mapToLong(s -> s.count).sum();
        }

        double handlerNanos() {
            return sums.values().stream().mapToDouble(s -> s.nanos).sum();
        }
    }

    /**
     * @param warmup, duration as given on the command line (written into the metadata)
     * @param host    the host measured on, its speed probe taken before the runs (the table's {@code calibration.host})
     */
    private final List<String> sets;

    CalibrationTotals(String warmup, String duration, HostIdentity host) {
        this(warmup, duration, host, List.of());
    }

    /** @param sets the {@code --set}s every calibrated experiment ran with (recorded: the names do not show them) */
    CalibrationTotals(String warmup, String duration, HostIdentity host, List<String> sets) {
        this.warmup = warmup;
        this.duration = duration;
        this.host = host;
        this.sets = List.copyOf(sets);
    }

    /** Adds one finished run: its handler sums and samples, and the JVM's CPU time over its window, ms. */
    void add(Experiment e, HandlerCalibration run, long processCpuMs) {
        String label = e.name() + "@" + e.clients();
        names.add(label);
        clients.put(label, e.clients());
        verify.put(label, e.verification().key());
        run.totals().forEach((k, s) -> handlers.computeIfAbsent(k, x -> new HandlerProfile.Sums()).addAll(s));
        runs.add(new Run(label, e.workload().name(), e.tree().tree().canonical(), e.tree().tree().shape(),
                run.totals(), processCpuMs * 1_000_000, run.idleEpisodes(), run.lateMicros()));
        Map<String, HandlerProfile.Sums> w = perWorkload.computeIfAbsent(e.workload().name(),
                x -> HandlerProfile.newTotals());
        run.totals().forEach((k, x) -> w.computeIfAbsent(k, y -> new HandlerProfile.Sums()).addAll(x));
        sizes.add(run.samples());
        cpuNanos += processCpuMs * 1_000_000;
        handlerNanos += run.handlerNanos();
    }

    /** The table fitted from every run added. */
    CostTable fit(String name) {
        Map<String, Object> cal = new LinkedHashMap<>();
        cal.put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
        cal.put("host", host.toMap());
        cal.put("experiments", List.copyOf(names));
        if (!sets.isEmpty()) {
            cal.put("sets", sets);
        }
        cal.put("clients", new LinkedHashMap<>(clients));
        // what each run verified: with verify on, the engine recorded its history and a spill thread wrote it to
        // disk, so the handler costs include the recording and the overhead factor the spill thread's CPU
        cal.put("verify", new LinkedHashMap<>(verify));
        cal.put("warmup", warmup);
        cal.put("duration", duration);
        // The runtime's CPU outside handlers, fitted over the runs (least squares, RuntimeOverhead): a factor on
        // handler time per workload (the garbage collector, the JIT compiler, queues and timers grow with the work
        // done) and a cost per idle episode of a worker (spinning, parking and being woken), which is what a lightly
        // loaded run spends on top; the simulation charges the factor on every handler and the wake cost whenever
        // a handler starts on an idle core.
        List<String> workloads = List.copyOf(perWorkload.keySet());
        RuntimeOverhead.Fit fit = RuntimeOverhead.fit(workloads, runs.stream().map(r -> new RuntimeOverhead.Run(
                r.workload(), r.cpuNanos(), r.handlerNanos(), r.idle())).toList());
        double overhead = ratio(runs);
        Map<String, Integer> bytes = sizes.averages();
        cal.put("cpuMs", cpuNanos / 1_000_000);
        cal.put("handlerMs", Math.round(handlerNanos / 1e6));
        cal.put("handled", runs.stream().mapToLong(Run::handled).sum());
        cal.put("idleEpisodes", runs.stream().mapToLong(Run::idle).sum());
        Map<String, Double> lates = new LinkedHashMap<>();
        for (String w : workloads) {
            lates.put(w, late(runs.stream().filter(r -> r.workload().equals(w)).toList()));
        }
        CostTable t = CostTable.fit(name, cal, handlers, perWorkload, overhead, fit.overheads(), fit.wakeMicros(),
                late(runs), lates, typicalBytes(bytes), bytes);
        List<TreeCosts> trees = treeSections();
        if (!trees.isEmpty()) {
            // what the workloads' pooled fits alone would charge: the bias the sections by tree remove
            cal.put("fitCheckByWorkload", fitCheck(t));
        }
        cal.put("fitCheck", fitCheck(t.withTrees(trees)));
        return CostTable.fit(name, cal, handlers, perWorkload, overhead, fit.overheads(), fit.wakeMicros(),
                late(runs), lates, typicalBytes(bytes), bytes).withTrees(trees);
    }

    /**
     * A section per tree of each workload calibrated under more than one tree (docs/simulation.md, "Costs by tree"):
     * the handler costs from that tree's runs alone, its overhead factor from the same least-squares fit as the
     * workloads' but with each such tree a group of its own, its runs' mean lateness.
     */
    private List<TreeCosts> treeSections() {
        Map<String, List<Run>> byTree = new LinkedHashMap<>();
        runs.forEach(r -> byTree.computeIfAbsent(r.treeKey(), k -> new ArrayList<>()).add(r));
        java.util.function.Predicate<Run> several = r -> byTree.values().stream()
                .filter(rs -> rs.get(0).workload().equals(r.workload())).count() > 1;
        List<String> groups = new ArrayList<>();
        List<RuntimeOverhead.Run> fitRuns = new ArrayList<>();
        for (Run r : runs) {
            String g = several.test(r) ? r.treeKey() : r.workload();
            if (!groups.contains(g)) {
                groups.add(g);
            }
            fitRuns.add(new RuntimeOverhead.Run(g, r.cpuNanos(), r.handlerNanos(), r.idle()));
        }
        Map<String, Double> factors = RuntimeOverhead.fit(groups, fitRuns).overheads();
        List<TreeCosts> out = new ArrayList<>();
        byTree.forEach((key, rs) -> {
            Run first = rs.get(0);
            if (!several.test(first)) {
                return;
            }
            Map<String, HandlerProfile.Sums> sums = HandlerProfile.newTotals();
            rs.forEach(r -> r.sums().forEach((k, x) -> sums.computeIfAbsent(k, y -> new HandlerProfile.Sums())
                    .addAll(x)));
            out.add(new TreeCosts(first.workload(), first.tree(), first.shape(), rs.stream().map(Run::label).toList(),
                    factors.get(key), late(rs), CostTable.fitKeys(sums)));
        });
        return out;
    }

    /** The emulated network's mean lateness over {@code rs}, weighted by messages handled, µs. */
    private static double late(List<Run> rs) {
        double n = rs.stream().mapToDouble(Run::handled).sum();
        return n <= 0 ? 0 : rs.stream().mapToDouble(r -> r.lateMicros() * r.handled()).sum() / n;
    }

    /** Σ CPU / Σ handler time of {@code rs}, at least 1. */
    private static double ratio(List<Run> rs) {
        double cpu = rs.stream().mapToDouble(Run::cpuNanos).sum();
        double in = rs.stream().mapToDouble(Run::handlerNanos).sum();
        return in <= 0 ? 1.0 : Math.max(1.0, cpu / in);
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

    /**
     * The fit check: for each run, the CPU time the table charges for the handlers it ran (base + per-unit cost of
     * each, plus the per-message overhead) divided by the CPU time the run measured — 1.0 is a perfect fit; the
     * simulation of that run's CPU-bound throughput is off by about its inverse.
     */
    Map<String, Double> fitCheck(CostTable t) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Run r : runs) {
            CostTable w = t.forRun(r.workload(), r.tree(), r.shape());
            double model = r.idle() * w.wakeMicros();
            for (Map.Entry<String, HandlerProfile.Sums> e : r.sums().entrySet()) {
                HandlerProfile.Sums s = e.getValue();
                HandlerCost c = w.cost(e.getKey());
                model += (s.count * c.baseMicros() + s.units * c.perUnitMicros() + s.colds * c.coldMicros())
                        * w.overhead();
            }
            out.put(r.label(), Math.round(model * 1000 / r.cpuNanos() * 1000) / 1000.0);
        }
        return out;
    }

    /** Prints where the table went and its ten costliest handler keys (by total time). */
    void report(PrintWriter out, CostTable t, Path file) {
        out.printf("wrote %s: %d handler keys (workloads %s), %d message sizes, overhead %.3f (%s), wake %.2f µs%n",
                file, t.handlers().size(), String.join(", ", t.workloads().keySet()), t.bytes().size(), t.overhead(),
                t.overheads(), t.wakeMicros());
        t.trees().forEach(c -> out.printf("  tree section %s/%s: %d handler keys, overhead %.3f, late %.1f µs (%s)%n",
                c.workload(), c.label(), c.handlers().size(), c.overhead(), c.lateMicros(),
                String.join(", ", c.experiments())));
        List<String> local = sizes.local();
        if (!local.isEmpty()) {
            out.println("no wire codec (never sent between JVMs): " + String.join(", ", local));
        }
        out.println("fit check (CPU the table charges / CPU measured, per run; 1.00 is exact):");
        Object byWorkload = t.calibration().get("fitCheckByWorkload");
        fitCheck(t).forEach((n, r) -> out.printf("  %-32s %.2f%s%n", n, r, byWorkload instanceof Map<?, ?> m
                && m.get(n) != null ? String.format(java.util.Locale.ROOT, "  (workload's fit alone: %.2f)",
                ((Number) m.get(n)).doubleValue()) : ""));
        List<String> sparse = handlers.entrySet().stream()
                .filter(x -> x.getValue().count < HandlerCost.MIN_SAMPLES)
                .map(x -> x.getKey() + " (" + x.getValue().count + ")").toList();
        if (!sparse.isEmpty()) {
            out.println("keys left out, under " + HandlerCost.MIN_SAMPLES
                    + " handlers in the runs (charged as keys the table lacks): " + String.join(", ", sparse));
        }
        out.println("costliest handlers (total ms, count, base µs + per-unit µs, + cold µs):");
        handlers.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, HandlerProfile.Sums> x) -> -x.getValue().nanos))
                .limit(10)
                .forEach(x -> out.printf("  %-32s %,9.0f ms %,12d  %8.3f + %.3f, + %.3f%n", x.getKey(),
                        x.getValue().nanos / 1e6, x.getValue().count, t.cost(x.getKey()).baseMicros(),
                        t.cost(x.getKey()).perUnitMicros(), t.cost(x.getKey()).coldMicros()));
    }
}
