package org.tebaldi.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * Writes XChart charts as PNG files, without a display: {@code java.awt.headless} is set to true before any chart
 * class loads (unless the JVM was started with it set otherwise). Charts are 900 × 540 pixels, anti-aliased,
 * legend to the right of the plot, title shown.
 */
public final class ChartFiles {
    /** Width of every chart, pixels. */
    public static final int WIDTH = 900;
    /** Height of every chart, pixels. */
    public static final int HEIGHT = 540;
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private ChartFiles() {
    }

    /** Applies the common style: anti-aliasing, legend to the right of the plot (never over the data). */
    static void style(Styler s) {
        s.setAntiAlias(true);
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartTitleVisible(true);
    }

    /**
     * Renders {@code chart} and writes it to {@code file} as PNG (replacing it).
     *
     * @throws IOException if the file cannot be written or the chart cannot be drawn (e.g. no fonts installed:
     *                     the message says so)
     */
    static void writePng(Chart<?, ?> chart, Path file) throws IOException {
        byte[] png;
        try {
            png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        } catch (RuntimeException | Error e) {
            throw new IOException("cannot draw the chart " + file.getFileName() + " (" + e
                    + "; a headless JVM still needs fonts, e.g. the fontconfig and DejaVu packages)", e);
        }
        Files.write(file, png);
    }

    /** Whether {@code bytes} start with the 8-byte PNG signature (ISO/IEC 15948 §5.2). */
    public static boolean isPng(byte[] bytes) {
        if (bytes.length < PNG_MAGIC.length) {
            return false;
        }
        for (int i = 0; i < PNG_MAGIC.length; i++) {
            if (bytes[i] != PNG_MAGIC[i]) {
                return false;
            }
        }
        return true;
    }
}
