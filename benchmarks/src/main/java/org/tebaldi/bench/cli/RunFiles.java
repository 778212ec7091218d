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
 * {@code timeline.csv} ({@link ResultFiles}), the files of the extension that ran beside it (e.g. the profiler's),
 * then {@code timeline.png} ({@link TimelineChart}). A chart that
 * cannot be drawn is a warning on {@code err}, not a failure: the data files are complete without it.
 */
final class RunFiles {
    private RunFiles() {
    }

    /**
     * Writes the files into {@code dir} (created if missing).
     *
     * @param run     the finished run
     * @param summary the run's {@code summary.json} content
     * @throws IOException if {@code summary.json}, {@code timeline.csv} or an extension's file cannot be written
     */
    static void write(Path dir, PointRunner.Finished run, ObjectNode summary, PrintWriter err) throws IOException {
        RunResult r = run.result();
        ResultFiles.write(dir, summary, r.driver().timeline());
        run.extension().writeFiles(dir, r);
        try {
            TimelineChart.write(dir.resolve(TimelineChart.FILE), r.driver().timeline(),
                    r.experiment().warmupMicros() / 1000, r.experiment().name());
        } catch (IOException e) {
            err.println("warning: " + dir.resolve(TimelineChart.FILE) + " not written: " + e.getMessage());
            err.flush();
        }
    }
}
