package org.tebaldi.bench.view;

import java.util.List;
import java.util.Locale;

/**
 * A grouped horizontal bar chart as inline SVG for {@link ReportPage}: one group per run, one bar per series (e.g.
 * p50, p95, p99), each bar labelled with its value. Absent values (NaN) draw no bar and read "n/a". Every bar
 * carries {@code data-run}, {@code data-series} and {@code data-value} attributes, so the numbers can be read back
 * from the page.
 */
final class BarChart {
    /** Series colours, in order. */
    static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};
    private static final int WIDTH = 640;
    private static final int LABEL = 190;
    private static final int BAR = 16;
    private static final int GAP = 10;

    private BarChart() {
    }

    /**
     * The chart's SVG element.
     *
     * @param title  shown above the bars, with the unit
     * @param format {@link String#format} pattern of a value, e.g. {@code %,.0f}
     * @param runs   group labels (one per run)
     * @param series bar labels within a group (one per value column)
     * @param values {@code values[run][series]}; NaN for absent
     */
    static String svg(String title, String format, List<String> runs, List<String> series, double[][] values) {
        double max = 0;
        for (double[] row : values) {
            for (double v : row) {
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        max = max <= 0 ? 1 : max;
        int groupHeight = series.size() * BAR + GAP;
        int legend = series.size() > 1 ? 22 : 0;
        int height = 30 + legend + runs.size() * groupHeight + 6;
        StringBuilder b = new StringBuilder();
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\" width=\"").append(WIDTH)
                .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(height).append("\" role=\"img\" aria-label=\"").append(ReportPage.esc(title)).append("\">");
        b.append("<text x=\"0\" y=\"16\" class=\"chart-title\">").append(ReportPage.esc(title)).append("</text>");
        if (legend > 0) {
            int x = LABEL;
            for (int s = 0; s < series.size(); s++) {
                b.append("<rect x=\"").append(x).append("\" y=\"26\" width=\"10\" height=\"10\" fill=\"")
                        .append(COLORS[s % COLORS.length]).append("\"/><text x=\"").append(x + 14)
                        .append("\" y=\"35\" class=\"legend\">").append(ReportPage.esc(series.get(s)))
                        .append("</text>");
                x += 70;
            }
        }
        int barSpace = WIDTH - LABEL - 90;
        int y = 30 + legend;
        for (int r = 0; r < runs.size(); r++) {
            b.append("<text x=\"").append(LABEL - 8).append("\" y=\"").append(y + series.size() * BAR / 2 + 4)
                    .append("\" text-anchor=\"end\" class=\"run-label\">").append(ReportPage.esc(shorten(runs.get(r))))
                    .append("</text>");
            for (int s = 0; s < series.size(); s++) {
                double v = values[r][s];
                int w = Double.isNaN(v) ? 0 : (int) Math.max(1, Math.round(v / max * barSpace));
                String text = Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, format, v);
                b.append("<rect x=\"").append(LABEL).append("\" y=\"").append(y).append("\" width=\"").append(w)
                        .append("\" height=\"").append(BAR - 2).append("\" fill=\"")
                        .append(COLORS[s % COLORS.length]).append("\" data-run=\"").append(ReportPage.esc(runs.get(r)))
                        .append("\" data-series=\"").append(ReportPage.esc(series.get(s))).append("\" data-value=\"")
                        .append(Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%s", v)).append("\"><title>")
                        .append(ReportPage.esc(runs.get(r) + " " + series.get(s) + ": " + text))
                        .append("</title></rect>");
                b.append("<text x=\"").append(LABEL + w + 4).append("\" y=\"").append(y + BAR - 4)
                        .append("\" class=\"value\">").append(ReportPage.esc(text)).append("</text>");
                y += BAR;
            }
            y += GAP;
        }
        return b.append("</svg>").toString();
    }

    private static String shorten(String s) {
        return s.length() <= 28 ? s : "…" + s.substring(s.length() - 27);
    }
}
