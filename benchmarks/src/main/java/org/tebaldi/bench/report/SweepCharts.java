package org.tebaldi.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * The charts of a sweep, drawn from the measured points (failed runs are left out), like the dissertation's
 * Figs 4.7, 4.8 and 4.11: {@code throughput.png} (committed txn/s) and {@code abort-rate.png} (aborted attempts
 * in % of all attempts). The x axis is {@code clients} when it is swept, else the first swept key whose values are
 * all numbers; one line per combination of the other swept keys (e.g. one per tree, or per experiment file),
 * named by their values. With no numeric swept key, the charts are bar charts with one bar per point.
 */
public final class SweepCharts {
    /** Throughput chart file name. */
    public static final String THROUGHPUT = "throughput.png";
    /** Abort-rate chart file name. */
    public static final String ABORT_RATE = "abort-rate.png";

    private SweepCharts() {
    }

    /**
     * Writes both charts into {@code dir}.
     *
     * @param keys    the swept keys, in sweep order
     * @param results the points in run order
     * @param title   the charts' title prefix, e.g. the experiment name
     * @return the files written: none when no point was measured
     * @throws IOException if a chart cannot be drawn or written
     */
    public static List<Path> write(Path dir, List<String> keys, List<PointResult> results, String title)
            throws IOException {
        List<PointResult> measured = results.stream().filter(PointResult::measured).toList();
        if (measured.isEmpty()) {
            return List.of();
        }
        Path t = dir.resolve(THROUGHPUT);
        Path a = dir.resolve(ABORT_RATE);
        chart(t, keys, measured, title, ": throughput", "throughput (txn/s)",
                r -> r.number("throughput"));
        chart(a, keys, measured, title, ": abort rate", "abort rate (% of attempts)",
                r -> r.number("abortRate") == null ? null : r.number("abortRate") * 100);
        return List.of(t, a);
    }

    /**
     * The key drawn on the x axis: {@code clients} if swept, else the first key whose labels all parse as numbers
     * (or as durations with a unit, e.g. {@code 500us}, drawn in µs) on the measured points; null if none.
     */
    static String xKey(List<String> keys, List<PointResult> measured) {
        if (keys.contains("clients")) {
            return "clients";
        }
        for (String k : keys) {
            if (measured.stream().allMatch(r -> number(r.point().values().get(k)) != null)) {
                return k;
            }
        }
        return null;
    }

    /**
     * The name of the line a point belongs to: the values of the swept keys other than {@code x} (just the value
     * when there is one such key, {@code key=value, ...} when several), or {@code fallback} when there is none.
     */
    static String seriesName(PointResult r, List<String> keys, String x, String fallback) {
        List<String> others = keys.stream().filter(k -> !k.equals(x)).toList();
        if (others.isEmpty()) {
            return fallback;
        }
        if (others.size() == 1) {
            return r.point().values().getOrDefault(others.get(0), "-");
        }
        return others.stream().map(k -> shortKey(k) + "=" + r.point().values().getOrDefault(k, "-"))
                .collect(Collectors.joining(", "));
    }

    private static void chart(Path file, List<String> keys, List<PointResult> measured, String name, String what,
                              String yTitle, Function<PointResult, Double> y) throws IOException {
        String title = name + what;
        String x = xKey(keys, measured);
        if (x == null) {
            CategoryChart c = new CategoryChartBuilder().width(ChartFiles.WIDTH).height(ChartFiles.HEIGHT)
                    .title(title).xAxisTitle("point").yAxisTitle(yTitle).build();
            ChartFiles.style(c.getStyler());
            c.getStyler().setLegendVisible(false);
            c.getStyler().setXAxisLabelRotation(measured.size() > 4 ? 30 : 0);
            List<String> names = measured.stream().map(r -> r.point().describe()).toList();
            List<Double> ys = measured.stream().map(r -> orZero(y.apply(r))).toList();
            c.addSeries(title, names, ys);
            ChartFiles.writePng(c, file);
            return;
        }
        boolean durations = measured.stream().anyMatch(r -> isDuration(r.point().values().get(x)));
        XYChart c = new XYChartBuilder().width(ChartFiles.WIDTH).height(ChartFiles.HEIGHT).title(title)
                .xAxisTitle(shortKey(x) + (durations ? " (µs)" : "")).yAxisTitle(yTitle).build();
        ChartFiles.style(c.getStyler());
        double minX = measured.stream().mapToDouble(r -> number(r.point().values().get(x))).min().orElse(0);
        double maxX = measured.stream().mapToDouble(r -> number(r.point().values().get(x))).max().orElse(0);
        if (durations && minX > 0 && maxX / minX >= 100) {
            c.getStyler().setXAxisLogarithmic(true); // e.g. a durable-write latency from 1 µs to 2 ms
        }
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setMarkerSize(7);
        c.getStyler().setXAxisDecimalPattern("#,##0.###");
        Map<String, List<PointResult>> series = new LinkedHashMap<>();
        for (PointResult r : measured) {
            series.computeIfAbsent(seriesName(r, keys, x, name), k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<PointResult>> s : series.entrySet()) {
            List<PointResult> pts = new ArrayList<>(s.getValue());
            pts.sort(Comparator.comparingDouble(r -> number(r.point().values().get(x))));
            List<Double> xs = pts.stream().map(r -> number(r.point().values().get(x))).toList();
            List<Double> ys = pts.stream().map(r -> orZero(y.apply(r))).toList();
            c.addSeries(s.getKey(), xs, ys);
        }
        ChartFiles.writePng(c, file);
    }

    private static Double number(String label) {
        if (label == null) {
            return null;
        }
        try {
            double d = Double.parseDouble(label);
            return Double.isFinite(d) ? d : null;
        } catch (NumberFormatException e) {
            return isDuration(label) ? (double) org.tebaldi.core.config.Durations.parseMicros(label) : null;
        }
    }

    /** Whether {@code label} is a duration with a unit ({@code 1us}, {@code 500µs}, {@code 2ms}, {@code 1.5s}). */
    private static boolean isDuration(String label) {
        return label != null && label.trim().matches("\\d+(\\.\\d+)?\\s*(us|µs|ms|s)");
    }

    private static double orZero(Double v) {
        return v == null ? 0 : v;
    }

    private static String shortKey(String key) {
        return key.substring(key.lastIndexOf('.') + 1);
    }
}
