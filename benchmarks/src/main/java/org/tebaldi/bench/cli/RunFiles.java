package org.tebaldi.bench.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.tebaldi.bench.report.ResultFiles;
import org.tebaldi.bench.report.TimelineChart;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.view.TreeDiagrams;

/**
 * The files of one run (a single experiment, or one point of a sweep): {@code summary.json} and
 * {@code timeline.csv} ({@link ResultFiles}; with {@code --dump}, {@code summary.json} gets a {@code dump} object:
 * the directory and the rows per table, or the error), the files of the extension that ran beside it (e.g. the
 * profiler's),
 * then {@code timeline.png} ({@link TimelineChart}) and the tree's diagram {@code tree.dot} / {@code tree.svg}
 * ({@link TreeDiagrams}). A chart or diagram that cannot be drawn is a warning on {@code err}, not a failure: the
 * data files are complete without it.
 */
final class RunFiles {
    private RunFiles() {
    }

    /**
     * Writes the files into {@code dir} (created if missing).
     *
     * @param run     the finished run
     * @param summary the run's {@code summary.json} content
     * @param out     where notes go (why {@code tree.svg} is missing)
     * @throws IOException if {@code summary.json}, {@code timeline.csv} or an extension's file cannot be written
     */
    static void write(Path dir, PointRunner.Finished run, ObjectNode summary, PrintWriter out, PrintWriter err)
            throws IOException {
        RunResult r = run.result();
        dump(summary, run.dump());
        ResultFiles.write(dir, summary, r.driver().timeline());
        run.extension().writeFiles(dir, r);
        try {
            TimelineChart.write(dir.resolve(TimelineChart.FILE), r.driver().timeline(),
                    r.driver().window().warmupMs(), r.experiment().name());
        } catch (IOException e) {
            err.println("warning: " + dir.resolve(TimelineChart.FILE) + " not written: " + e.getMessage());
            err.flush();
        }
        tree(dir, r.experiment(), out);
    }

    /** Adds {@code dump} to {@code summary}: the directory and the rows per table, or the error (none if null). */
    static void dump(ObjectNode summary, PointRunner.Dump dump) {
        if (dump == null) {
            return;
        }
        ObjectNode d = summary.putObject("dump");
        d.put("dir", dump.dir().toAbsolutePath().toString());
        if (dump.written() != null) {
            ObjectNode t = d.putObject("tables");
            dump.written().rows().forEach(t::put);
        } else {
            d.put("error", dump.error());
        }
    }

    /**
     * Writes {@code tree.dot} and {@code tree.svg} of {@code e}'s tree (none for PostgreSQL); never throws. Why the
     * {@code .svg} is missing (Graphviz not installable, once per JVM) goes to {@code out} as a note: the run's
     * results are complete without it.
     */
    static void tree(Path dir, org.tebaldi.bench.experiment.Experiment e, PrintWriter out) {
        PrintWriter err = out;
        if (e.tree() == null || e.target().isPostgresql()) {
            return;
        }
        try {
            TreeDiagrams.write(dir, "tree", e.tree().tree(), e.name() + ": " + (e.treeRef().file() != null
                    ? e.treeRef().file().getFileName() : "inline tree"), err);
        } catch (IOException x) {
            err.println("warning: " + dir.resolve("tree.dot") + " not written: " + x.getMessage());
            err.flush();
        }
    }
}
