package org.tebaldi.bench.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.experiment.ClusterSpec;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.PostgresSpec;
import org.tebaldi.bench.report.ConsoleFormat;
import org.tebaldi.bench.run.Checks;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.core.config.Durations;

/** The console text of a run before and after it: the experiment header, the summary table, messages, checks. */
final class RunReport {
    private RunReport() {
    }

    /** What is about to run, and the tree's warnings. */
    static void header(PrintWriter out, Experiment e) {
        ClusterSpec c = e.cluster();
        String options = e.workloadOptions().entrySet().stream().filter(x -> !x.getKey().equals("name"))
                .map(x -> x.getKey() + "=" + x.getValue()).collect(Collectors.joining(", "));
        out.println("experiment " + e.name() + " (" + e.file() + ")");
        if (e.target().isPostgresql()) {
            PostgresSpec p = e.target().postgresql();
            out.println("  workload " + e.workload().name() + (options.isEmpty() ? "" : " {" + options + "}")
                    + ", target postgresql: " + (p.local() ? "local throw-away server (fsync " + (p.fsync() ? "on"
                    : "off") + ")" : p.url()) + ", schema " + p.schema() + ", SERIALIZABLE"
                    + (e.treeRef() != null ? " (tree " + e.treeRef().describe() + " not used)" : ""));
        } else {
            out.println("  workload " + e.workload().name() + (options.isEmpty() ? "" : " {" + options + "}")
                    + ", tree " + e.treeRef().describe());
            cluster(out, c);
        }
        out.println("  " + e.clients() + " clients, warmup " + e.warmup().describe() + ", duration "
                + Durations.format(e.durationMicros()) + (e.verify() ? ", verify " + e.verification().key() : "") + ", seed " + e.seed());
        if (e.tree() != null && !e.target().isPostgresql()) {
            for (String w : e.tree().warnings()) {
                out.println("warning: " + w);
            }
        }
        out.flush();
    }

    private static void cluster(PrintWriter out, ClusterSpec c) {
        String threads = c.threads() == 0 ? "threads=cores(" + Runtime.getRuntime().availableProcessors() + ")"
                : "threads=" + c.threads();
        if (c.simulated()) {
            out.println("  cluster simulated: " + c.coordinators() + " coordinator(s), " + c.dataServers()
                    + " data server(s) on " + c.simulation().machines() + " machine(s) x "
                    + c.simulation().coresPerMachine() + " virtual cores" + (c.simulation().serviceMachine()
                    ? " + a service machine" : "") + ", costs " + c.simulation().costsFile());
            return;
        }
        out.println("  cluster " + c.mode() + ": " + c.coordinators() + " coordinator(s), " + c.dataServers()
                + " data server(s), " + (c.mode().equals("processes") ? "one event-loop thread per node, transport "
                + c.transport() + (c.bind().equals("127.0.0.1") ? " on loopback" : " on " + c.bind()) : threads + ", networkDelay="
                + Durations.format(c.networkDelayMicros())));
    }

    /** CPU and GC over the measured window, and the warning when the CPU set the throughput. */
    private static void machine(PrintWriter out, org.tebaldi.bench.driver.MachineUsage m) {
        StringBuilder nodes = new StringBuilder();
        m.nodeCpuMs().keySet().stream().sorted().forEach(n -> nodes.append(String.format(Locale.ROOT, " %s %.0f%%", n,
                100 * m.nodeUtilization(n))));
        out.println(String.format(Locale.ROOT, "machine: cpu %.0f%% of %d cores%s; GC pauses %d, %,d ms (%.1f%% of the"
                + " window), longest %,d ms", 100 * m.utilization(), m.cores(),
                nodes.length() == 0 ? "" : " (of one core:" + nodes + ")", m.gcPauses(), m.gcPauseMs(),
                100 * m.gcPauseShare(), m.gcMaxPauseMs())
                + (m.jitShare() == null ? "" : String.format(Locale.ROOT, "; JIT compile time %.1f%% of the window",
                100 * m.jitShare())));
        if (m.jitBusy()) {
            out.println("WARNING: " + org.tebaldi.bench.driver.MachineUsage.JIT_WARNING);
        }
        if (m.saturated()) {
            out.println("WARNING: " + org.tebaldi.bench.driver.MachineUsage.WARNING + " (cpu "
                    + String.format(Locale.ROOT, "%.0f%%", 100 * m.utilization()) + " of the machine in the measured"
                    + " window): tree-to-tree ratios measured now show the engine's cost, not the trees'");
        }
    }

    /**
     * A simulated run's virtual CPU per machine (the busiest few), its busiest nodes, and the wall time per virtual
     * second; the saturation warning when the busiest machine's cores were busy ≥ 90% of the window.
     */
    private static void simulated(PrintWriter out, org.tebaldi.bench.run.SimulationInfo s,
                                  org.tebaldi.bench.driver.MachineUsage m) {
        double[] u = s.machineUtilization();
        Integer[] order = new Integer[u.length];
        for (int i = 0; i < u.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(u[b], u[a]));
        StringBuilder machines = new StringBuilder();
        for (int i = 0; i < Math.min(4, order.length); i++) {
            machines.append(String.format(Locale.ROOT, "%s m%d %.0f%% (%s)", i == 0 ? "" : ",", order[i],
                    100 * u[order[i]], s.machineNodes()[order[i]]));
        }
        StringBuilder nodes = new StringBuilder();
        if (m != null) {
            m.nodeCpuMs().keySet().stream().sorted((a, b) -> Double.compare(m.nodeUtilization(b),
                    m.nodeUtilization(a))).limit(6).forEach(n -> nodes.append(String.format(Locale.ROOT, " %s %.0f%%",
                    n, 100 * m.nodeUtilization(n))));
        }
        out.println(String.format(Locale.ROOT, "simulated machines (virtual cpu, busiest first):%s; busiest nodes (of "
                + "one core):%s; wall %.1f s per virtual second (costs %s, %s)", machines, nodes,
                s.wallPerVirtualSecond(), s.costs(), s.costMode()));
        if (m != null) {
            m.handlerUs().entrySet().stream().sorted((a, b) -> Double.compare(m.nodeUtilization(b.getKey()),
                    m.nodeUtilization(a.getKey()))).limit(2).forEach(e -> out.println(handlers(e.getKey(),
                    e.getValue())));
        }
        if (s.maxMachineUtilization() >= org.tebaldi.bench.driver.MachineUsage.SATURATED) {
            out.println(String.format(Locale.ROOT, "WARNING: simulated machine m%d's cores were %.0f%% busy: its CPU, "
                    + "not concurrency control, set the throughput", order[0], 100 * u[order[0]]));
        }
    }

    /**
     * One line: where a busy simulated node's time went, by handler key, largest first (the first five, then the
     * rest together), e.g. {@code where ds1's time went: ds ExecRequest 41%, ds CcEnvelope/Watermark 22%, ...}.
     */
    static String handlers(String node, java.util.Map<String, Long> us) {
        long total = us.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder b = new StringBuilder("where " + node + "'s time went (virtual cpu by handler):");
        java.util.List<java.util.Map.Entry<String, Long>> sorted = us.entrySet().stream()
                .sorted((x, y) -> Long.compare(y.getValue(), x.getValue())).toList();
        long rest = 0;
        for (int i = 0; i < sorted.size(); i++) {
            if (i < 5) {
                b.append(i == 0 ? " " : ", ").append(sorted.get(i).getKey()).append(String.format(Locale.ROOT,
                        " %.0f%%", total == 0 ? 0.0 : 100.0 * sorted.get(i).getValue() / total));
            } else {
                rest += sorted.get(i).getValue();
            }
        }
        if (rest > 0) {
            b.append(String.format(Locale.ROOT, ", other %.0f%%", 100.0 * rest / total));
        }
        return b.toString();
    }

    /** The summary table, message counts, machine, the measured window's steadiness, errors and check outcomes. */
    static void summary(PrintWriter out, RunResult r) {
        summary(out, r, 0);
    }

    /**
     * As {@link #summary(PrintWriter, RunResult)}, for a run whose tree was swapped {@code reconfigurations} times
     * in the measured window ({@code tebaldi tune}; {@link ConsoleFormat#window(org.tebaldi.bench.driver.WindowCheck,
     * int)}).
     */
    static void summary(PrintWriter out, RunResult r, int reconfigurations) {
        DriverResult d = r.driver();
        out.println();
        ConsoleFormat.table(d).forEach(out::println);
        long committed = d.total().committed();
        if (committed > 0 && !d.messages().isEmpty()) {
            Map<String, Long> m = d.messages();
            long total = m.values().stream().mapToLong(Long::longValue).sum();
            out.println(String.format(Locale.ROOT, "messages: %.2f per committed txn; TC->DS requests per txn: "
                    + "execute %.2f, validate %.2f, commit %.2f, abort %.2f", (double) total / committed,
                    per(m, "ExecRequest", committed) + per(m, "ExecBatch", committed), per(m, "ValidateRequest", committed),
                    per(m, "CommitRequest", committed), per(m, "AbortRequest", committed)));
        }
        if (r.simulation() != null) {
            simulated(out, r.simulation(), d.machine());
        } else if (d.machine() != null) {
            machine(out, d.machine());
        }
        ConsoleFormat.window(d.window(), reconfigurations).forEach(out::println);
        for (org.tebaldi.core.cc.CounterGroup g : org.tebaldi.core.cc.Mechanisms.counterGroups()) {
            String line = g.line(r.ccCounters());
            if (line != null) {
                out.println(line);
            }
        }
        if (!d.abortReasons().isEmpty()) {
            out.println("abort reasons (measured window):");
            d.abortReasons().entrySet().stream().limit(5).forEach(e -> out.println(String.format(Locale.ROOT,
                    "  %,9d  %s", e.getValue(), e.getKey())));
        }
        if (d.total().errors() > 0) {
            out.println("errors (not retried): " + d.total().errors() + "; first: " + String.join(" | ",
                    d.errorSamples()));
        }
        if (d.inFlightAtEnd() > 0) {
            out.println("warning: " + d.inFlightAtEnd() + " client(s) still had a transaction in flight "
                    + "when the drain timeout expired");
        }
        Checks c = r.checks();
        if (c.serializable() != null || c.report() != null) {
            out.println("serializability: " + c.report().strip().replace("\n", "\n  "));
        }
        if (c.consistency() != null) {
            out.println("consistency: " + (c.consistency().consistent() ? "ok" : "VIOLATED") + " — "
                    + c.consistency().summary());
            c.consistency().problems().forEach(p -> out.println("  " + p));
        }
        out.flush();
    }

    private static double per(Map<String, Long> m, String cls, long committed) {
        return (double) m.getOrDefault(cls, 0L) / committed;
    }
}
