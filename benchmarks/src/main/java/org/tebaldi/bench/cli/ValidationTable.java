package org.tebaldi.bench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The table of {@link ValidateCommand} (docs/simulation.md, "Validation"): per point, the real runs' median, min and
 * max throughput (txn/s) and median abort rate, the simulated throughput and abort rate, the ratio simulated/real,
 * the abort difference in points, the busiest CPU (real: the machine's utilization; simulated: the busiest
 * simulated machine's), whether the row is within the bounds, and the runs' {@code verify} setting (off, after, ...;
 * the CSV's last column, so that {@code --reuse-real} reads older files too).
 */
final class ValidationTable {
    private ValidationTable() {
    }

    static String csv(List<ValidateCommand.Row> rows) {
        StringBuilder b = new StringBuilder("experiment,clients,real_txn_s_median,real_txn_s_min,real_txn_s_max,"
                + "sim_txn_s,ratio,real_abort_rate,sim_abort_rate,abort_diff_points,real_cpu,sim_cpu,within,verify\n");
        for (ValidateCommand.Row r : rows) {
            b.append(String.format(Locale.ROOT, "%s,%d,%.1f,%.1f,%.1f,%.1f,%.3f,%.4f,%.4f,%.2f,%.3f,%.3f,%s,%s%n",
                    r.experiment(), r.clients(), r.realMedian(), min(r.real()), max(r.real()), r.sim(), r.ratio(),
                    r.realAbortMedian(), r.simAbort(), r.abortPoints(), r.realCpu(), r.simCpu(), r.within(),
                    r.verify()));
        }
        return b.toString();
    }

    static List<String> markdown(List<ValidateCommand.Row> rows) {
        List<String> out = new ArrayList<>();
        out.add("| experiment | clients | real txn/s (median, min-max) | simulated txn/s | sim/real | real abort | "
                + "sim abort | diff (points) | real cpu | sim cpu | within | verify |");
        out.add("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (ValidateCommand.Row r : rows) {
            out.add(String.format(Locale.ROOT, "| %s | %d | %,.0f (%,.0f-%,.0f) | %,.0f | %.2f | %.1f%% | %.1f%% | "
                            + "%+.1f | %.0f%% | %.0f%% | %s | %s |", r.experiment(), r.clients(), r.realMedian(),
                    min(r.real()), max(r.real()), r.sim(), r.ratio(), 100 * r.realAbortMedian(), 100 * r.simAbort(),
                    r.abortPoints(), 100 * r.realCpu(), 100 * r.simCpu(), r.within() ? "yes" : "**no**", r.verify()));
        }
        return out;
    }

    private static double min(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
