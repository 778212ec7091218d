package org.tebaldi.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * A bar chart of simulated throughputs beside the dissertation's published ones (docs/simulation.md,
 * "Predictions"): one pair of bars per experiment, txn/s.
 */
public final class PaperChart {
    /** One experiment: its label, the simulated and the published throughput, txn/s (0 if not run). */
    public record Bar(String label, double simulated, double paper) {
    }

    private PaperChart() {
    }

    /**
     * Writes the chart as PNG.
     *
     * @throws IOException if it cannot be drawn or written
     */
    public static void write(Path file, String title, List<Bar> bars) throws IOException {
        CategoryChart c = new CategoryChartBuilder().width(ChartFiles.WIDTH).height(ChartFiles.HEIGHT).title(title)
                .xAxisTitle("experiment").yAxisTitle("throughput (txn/s)").build();
        ChartFiles.style(c.getStyler());
        c.getStyler().setXAxisLabelRotation(bars.size() > 3 ? 20 : 0);
        List<String> labels = bars.stream().map(Bar::label).toList();
        c.addSeries("simulated (this model)", labels, bars.stream().map(Bar::simulated).toList());
        c.addSeries("dissertation (20 x 20 cores)", labels, bars.stream().map(Bar::paper).toList());
        ChartFiles.writePng(c, file);
    }
}
