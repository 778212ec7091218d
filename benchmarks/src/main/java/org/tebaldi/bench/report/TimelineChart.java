package org.tebaldi.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.tebaldi.bench.driver.TimelinePoint;

/**
 * {@code timeline.png}: committed transactions per second in each 100 ms bucket of a run (the data of
 * {@code timeline.csv}), warm-up included, with a vertical line where the measured window starts.
 */
public final class TimelineChart {
    /** File name of the chart, next to {@code timeline.csv}. */
    public static final String FILE = "timeline.png";

    private TimelineChart() {
    }

    /**
     * Writes the chart.
     *
     * @param timeline     the buckets in order ({@code tMs} = end of the bucket, ms since the run started;
     *                     throughput in txn/s)
     * @param warmupMillis length of the warm-up, ms (no line when 0)
     * @param title        the chart title, e.g. the experiment name
     * @throws IOException if the file cannot be written or drawn
     */
    public static void write(Path file, List<TimelinePoint> timeline, long warmupMillis, String title)
            throws IOException {
        write(file, timeline, warmupMillis, title, List.of());
    }

    /** A labelled vertical line, e.g. where a reconfiguration started; {@code seconds} since the run started. */
    public record Mark(double seconds, String label) {
    }

    /** As {@link #write(Path, List, long, String)}, with a labelled vertical line at each mark. */
    public static void write(Path file, List<TimelinePoint> timeline, long warmupMillis, String title,
                             List<Mark> marks) throws IOException {
        XYChart c = new XYChartBuilder().width(ChartFiles.WIDTH).height(ChartFiles.HEIGHT).title(title)
                .xAxisTitle("time (s)").yAxisTitle("throughput (txn/s, per 100 ms)").build();
        ChartFiles.style(c.getStyler());
        c.getStyler().setLegendVisible(false);
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setXAxisTickMarkSpacingHint(90);
        c.getStyler().setXAxisDecimalPattern("#0.#");
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (TimelinePoint p : timeline) {
            x.add(p.tMs() / 1000.0);
            y.add(p.throughput());
        }
        if (x.isEmpty()) {
            x.add(0.0);
            y.add(0.0);
        }
        XYSeries s = c.addSeries("throughput", x, y);
        s.setMarker(SeriesMarkers.NONE);
        if (warmupMillis > 0) {
            c.addAnnotation(new AnnotationLine(warmupMillis / 1000.0, true, false));
        }
        double top = y.stream().mapToDouble(Double::doubleValue).max().orElse(1.0);
        for (int i = 0; i < marks.size(); i++) {
            Mark m = marks.get(i);
            c.addAnnotation(new AnnotationLine(m.seconds(), true, false));
            c.addAnnotation(new org.knowm.xchart.AnnotationText(m.label(), m.seconds(),
                    top * (0.97 - 0.05 * (i % 4)), false));
        }
        ChartFiles.writePng(c, file);
    }
}
