package org.tebaldi.bench.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

/**
 * The runtime's own CPU, fitted over calibration runs (docs/simulation.md, "Calibration"): each run's CPU time
 * {@code cpu} against its time inside handlers {@code h} and its workers' idle episodes {@code i}, least squares of
 * {@code cpu = factor[workload] × h + wake × i} (no intercept; Apache Commons Math). A negative wake cost, or too few
 * runs, falls back to {@code wake = 0} and each workload's CPU / handler ratio; every factor is at least 1.
 */
final class RuntimeOverhead {
    private RuntimeOverhead() {
    }

    /** One run: its workload, CPU time (ns), time inside handlers (ns), idle episodes. */
    record Run(String workload, double cpuNanos, double handlerNanos, double idle) {
    }

    /** The fitted factor per workload and the wake cost, µs. */
    record Fit(Map<String, Double> overheads, double wakeMicros) {
    }

    static Fit fit(List<String> workloads, List<Run> runs) {
        int p = workloads.size() + 1;
        if (runs.size() > p) {
            double[] y = new double[runs.size()];
            double[][] x = new double[runs.size()][p];
            for (int r = 0; r < runs.size(); r++) {
                Run run = runs.get(r);
                y[r] = run.cpuNanos();
                x[r][workloads.indexOf(run.workload())] = run.handlerNanos();
                x[r][p - 1] = run.idle();
            }
            try {
                OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
                ols.setNoIntercept(true);
                ols.newSampleData(y, x);
                double[] b = ols.estimateRegressionParameters();
                if (b[p - 1] >= 0) {
                    Map<String, Double> out = new LinkedHashMap<>();
                    for (int w = 0; w < workloads.size(); w++) {
                        out.put(workloads.get(w), Math.max(1.0, b[w]));
                    }
                    return new Fit(out, b[p - 1] / 1000);
                }
            } catch (RuntimeException singular) {
                // fall through to the ratios
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (String w : workloads) {
            double cpu = runs.stream().filter(r -> r.workload().equals(w)).mapToDouble(Run::cpuNanos).sum();
            double in = runs.stream().filter(r -> r.workload().equals(w)).mapToDouble(Run::handlerNanos).sum();
            out.put(w, in <= 0 ? 1.0 : Math.max(1.0, cpu / in));
        }
        return new Fit(out, 0);
    }
}
