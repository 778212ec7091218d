package org.tebaldi.bench.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.tebaldi.bench.report.ResultFiles;
import org.tebaldi.bench.report.TimelineChart;
import org.tebaldi.bench.run.RunResult;

/**
 * The files of one run (a single experiment, or one point of a sweep): {@code summary.json} and
 * {@code timeline.csv} ({@link ResultFiles}), then {@code timeline.png} ({@link TimelineChart}). A chart that
 * cannot be drawn is a warning on {@code err}, not a failure: the data files are complete without it.
 */
final class RunFiles {
    private RunFiles() {
    }

    /**
     * Writes the three files into {@code dir} (created if missing).
     *
     * @param summary the run's {@code summary.json} content
     * @throws IOException if {@code summary.json} or {@code timeline.csv} cannot be written
     */
    static void write(Path dir, RunResult r, ObjectNode summary, PrintWriter err) throws IOException {
        ResultFiles.write(dir, summary, r.driver().timeline());
        try {
            TimelineChart.write(dir.resolve(TimelineChart.FILE), r.driver().timeline(),
                    r.experiment().warmupMicros() / 1000, r.experiment().name());
        } catch (IOException e) {
            err.println("warning: " + dir.resolve(TimelineChart.FILE) + " not written: " + e.getMessage());
            err.flush();
        }
    }
}
