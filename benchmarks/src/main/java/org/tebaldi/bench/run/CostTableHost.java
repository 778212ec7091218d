package org.tebaldi.bench.run;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.HostIdentity;

/**
 * Whether a simulated run's cost table fits the host it runs on (docs/simulation.md, "Calibration"): the table's
 * handler costs are the CPU time of the host it was measured on ({@code calibration.host}), so a simulated run on
 * another host — another CPU model, or a speed probe off by more than {@link HostIdentity#PROBE_TOLERANCE} — predicts
 * that host's throughput, not this one's. The check says so in one {@code WARNING} line with the command that
 * recalibrates; it never rescales the costs. A table that records no host identity (written before it was
 * recorded) gets a note that the host is unknown.
 *
 * @param line       the line to print: a {@code WARNING}, a {@code NOTE} (host unknown) or an informative line
 * @param otherHost  true: measured on another host; false: on a host like this one; null: unknown
 * @param tableHost  the table's host ({@link HostIdentity#toMap}); null when unknown
 * @param here       this host, its probe included
 */
public record CostTableHost(String line, Boolean otherHost, Map<String, Object> tableHost, Map<String, Object> here) {
    /** How calibrate is run for this host, with {@code NAME} filled in ({@link #suggestedName}). */
    static String recalibrate(HostIdentity here) {
        String f = "config/costs/" + suggestedName(here) + ".yaml";
        return "scripts/tebaldi calibrate --out " + f + ", then point the experiment's cluster.simulation.costs at "
                + "it (or --set cluster.simulation.costs=" + f + ")";
    }

    /** A file name for this host's table: its host name, lower case, other characters than [a-z0-9.-] as '-'. */
    static String suggestedName(HostIdentity here) {
        String n = here.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]+", "-").replaceAll("^[-.]+|-+$", "");
        return n.isEmpty() || n.equals("unknown") || n.equals("localhost") ? "this-host" : n;
    }

    /** One line describing a host: name, CPU model, cores, Java, probe (median and range). */
    public static String describe(HostIdentity h) {
        return String.format(Locale.ROOT, "host %s: CPU '%s', %d cores, %s, Java %s; speed probe %,.0f ns/iteration "
                        + "(median of %d repeats, %,.0f-%,.0f)", h.name(), h.cpuModel(), h.cores(), h.os(), h.java(),
                h.probe().nsPerIteration(), h.probe().repeats(), h.probe().minNs(), h.probe().maxNs());
    }

    /**
     * Checks {@code table} (read from {@code file}) against {@code here}.
     *
     * @param file the table's file, as shown in the line (made relative to the working directory when inside it)
     */
    public static CostTableHost check(CostTable table, Path file, HostIdentity here) {
        String name = table.name().contains("/") ? table.name().substring(0, table.name().indexOf('/')) : table.name();
        String where = "cost table '" + name + "' (" + shown(file) + ")";
        java.util.Optional<HostIdentity> recorded = table.host();
        if (recorded.isEmpty()) {
            String n = HostIdentity.recordedName(table.calibration());
            return new CostTableHost(String.format(Locale.ROOT, "NOTE: %s records no CPU model or speed probe (it "
                            + "was written before calibrate recorded them%s), so the host it was measured on is "
                            + "unknown and whether its costs fit this host (CPU '%s', probe %,.0f ns/iteration) cannot "
                            + "be told; to record it, recalibrate: %s", where,
                    n == null ? "" : "; host name '" + n + "'", here.cpuModel(), here.probe().nsPerIteration(),
                    recalibrate(here)), null, null, here.toMap());
        }
        HostIdentity t = recorded.get();
        HostIdentity.Comparison c = HostIdentity.compare(t, here);
        String theirs = String.format(Locale.ROOT, "'%s', CPU '%s', probe %,.0f ns/iteration", t.name(), t.cpuModel(),
                t.probe().nsPerIteration());
        String self = String.format(Locale.ROOT, "'%s', CPU '%s', probe %,.0f ns/iteration", here.name(),
                here.cpuModel(), here.probe().nsPerIteration());
        String ratio = c.probeComparable() ? String.format(Locale.ROOT, "%.2fx the table's time", c.probeRatio())
                : "probe not comparable: kernel " + here.probe().kernel() + ", the table's " + t.probe().kernel();
        if (!c.otherHost()) {
            return new CostTableHost(where + " was measured on a host like this one: " + theirs + "; this host: " + self
                    + " (" + ratio + ")", false, t.toMap(), here.toMap());
        }
        String why = !c.sameCpuModel() ? "another CPU model"
                : "same CPU model: another machine of that model, or this one busier or quieter than when the table "
                + "was measured";
        return new CostTableHost(String.format(Locale.ROOT, "WARNING: %s was measured on another host — %s; this "
                        + "host: %s (%s; %s). Its throughput predictions are scaled to that host, not this one; to "
                        + "recalibrate here: %s", where, theirs, self, ratio, why, recalibrate(here)), true, t.toMap(),
                here.toMap());
    }

    private static String shown(Path file) {
        if (file == null) {
            return "no file";
        }
        Path cwd = Path.of("").toAbsolutePath();
        Path abs = file.toAbsolutePath().normalize();
        return abs.startsWith(cwd) ? cwd.relativize(abs).toString() : abs.toString();
    }
}
