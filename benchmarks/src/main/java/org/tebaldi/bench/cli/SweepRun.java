package org.tebaldi.bench.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.tebaldi.bench.driver.ProgressTick;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.Sweep;
import org.tebaldi.bench.experiment.SweepPoint;
import org.tebaldi.bench.report.ConsoleFormat;
import org.tebaldi.bench.report.PointResult;
import org.tebaldi.bench.report.ResultsCsv;
import org.tebaldi.bench.report.SummaryJson;
import org.tebaldi.bench.report.SweepCharts;
import org.tebaldi.bench.report.SweepProgress;
import org.tebaldi.bench.run.RunFailedException;

/**
 * Runs a {@link Sweep}: every point in turn, each on a fresh cluster ({@link PointRunner}) with its data loaded anew (no state
 * is shared between points). The console shows one line when a point starts and one when it ends, and each
 * per-second progress line starts with a bar and the estimated time left over the whole sweep
 * ({@link SweepProgress}). Written into the run directory: one sub-directory per point ({@link SweepPoint#dir()})
 * with its {@code summary.json} (plus a {@code sweep} object: the point's index and values), {@code timeline.csv}
 * and {@code timeline.png}; {@code results.csv} and the charts, rewritten after every point so that an
 * interrupted sweep keeps what it measured. A point whose run fails is recorded as {@code run-failed} and the
 * sweep goes on. Exit code: {@value ExitCodes#RUN_FAILED} if a point's run failed (or results.csv could not be
 * written), else {@value ExitCodes#CHECK_FAILED} if a check failed, else {@value ExitCodes#OK}.
 */
final class SweepRun {
    private final Sweep sweep;
    private final PointRunner runner;
    private final Path dir;
    private final PrintWriter out;
    private final PrintWriter err;
    private final SweepProgress progress;
    private final List<PointResult> results = new ArrayList<>();

    /**
     * @param runner runs each point (embedded or processes mode)
     * @param dir    the run directory (created when the first file is written)
     */
    SweepRun(Sweep sweep, PointRunner runner, Path dir, PrintWriter out, PrintWriter err) {
        this.sweep = sweep;
        this.runner = runner;
        this.dir = dir;
        this.out = out;
        this.err = err;
        this.progress = new SweepProgress(sweep.points().stream().map(p -> p.experiment().warmup().minMicros()
                + p.experiment().durationMicros()).toList(), System::nanoTime);
    }

    /**
     * Runs every point.
     *
     * @return the exit code
     * @throws InterruptedException if the thread is interrupted (the running point's clients are stopped first)
     */
    int run() throws InterruptedException {
        int n = sweep.points().size();
        out.println("sweep of " + n + " point(s) over " + String.join(" x ", sweep.keys()) + ": at least "
                + SweepProgress.duration(sweep.plannedMicros() * 1000) + " of warm-up and measurement, plus "
                + "loading and checks; results in " + dir);
        out.flush();
        for (SweepPoint p : sweep.points()) {
            PointResult r = runPoint(p, n);
            results.add(r);
            out.println(endLine(p, n, r));
            out.flush();
            try {
                ResultsCsv.write(dir, sweep.keys(), results);
            } catch (IOException e) {
                err.println("cannot write " + dir.resolve(ResultsCsv.FILE) + ": " + e.getMessage());
                err.flush();
                return ExitCodes.RUN_FAILED;
            }
            List<Path> charts = charts();
            if (r.point().index() == n) {
                out.println(String.format(Locale.ROOT, "sweep done in %s: %d point(s), %d ok, %d check-failed, %d "
                        + "run-failed", SweepProgress.duration(progress.elapsedNanos()), n,
                        count(PointResult.Status.OK), count(PointResult.Status.CHECK_FAILED),
                        count(PointResult.Status.RUN_FAILED)));
                out.println("wrote " + dir.resolve(ResultsCsv.FILE) + charts.stream().map(c -> ", "
                        + c.getFileName()).collect(Collectors.joining()) + " and one directory per point");
                out.flush();
            }
        }
        if (count(PointResult.Status.RUN_FAILED) > 0) {
            return ExitCodes.RUN_FAILED;
        }
        return count(PointResult.Status.CHECK_FAILED) > 0 ? ExitCodes.CHECK_FAILED : ExitCodes.OK;
    }

    private PointResult runPoint(SweepPoint p, int n) throws InterruptedException {
        progress.pointStarted(p.index() - 1);
        out.println("=== point " + p.index() + "/" + n + ": " + p.describe() + "   " + progress.bar(0));
        Experiment e = p.experiment();
        RunReport.header(out, e);
        String at = "point " + p.index() + "/" + n;
        Path pointDir = dir.resolve(p.dir());
        PointRunner.Finished r;
        try {
            r = runner.run(e, new ConsoleListener(out, t -> tickLine(at, t)), pointDir, runner.dumpDir(p.dir()), x -> x);
        } catch (RunFailedException x) {
            err.println(at + " (" + p.describe() + ") run failed: " + x.getMessage());
            err.flush();
            progress.pointFinished();
            return new PointResult(p, null, PointResult.Status.RUN_FAILED);
        }
        RunReport.summary(out, r.result());
        ObjectNode summary = SummaryJson.build(r.result());
        ObjectNode s = summary.putObject("sweep");
        s.put("point", p.index());
        s.put("points", n);
        s.put("dir", p.dir());
        ObjectNode values = s.putObject("values");
        p.values().forEach(values::put);
        try {
            RunFiles.write(pointDir, r, summary, out, err);
        } catch (IOException x) {
            err.println(at + ": cannot write results to " + pointDir + ": " + x.getMessage());
            err.flush();
            progress.pointFinished();
            return new PointResult(p, null, PointResult.Status.RUN_FAILED);
        }
        progress.pointFinished();
        return new PointResult(p, summary, r.result().checks().passed() ? PointResult.Status.OK
                : PointResult.Status.CHECK_FAILED);
    }

    private String tickLine(String at, ProgressTick t) {
        return progress.bar(t.second()) + " | " + at + " | " + ConsoleFormat.progress(t);
    }

    private String endLine(SweepPoint p, int n, PointResult r) {
        String head = "=== point " + p.index() + "/" + n + " " + r.status().label() + " after "
                + SweepProgress.duration(progress.elapsedNanos()) + " in total";
        if (!r.measured()) {
            return head + "   " + progress.bar(0);
        }
        double abort = r.number("abortRate") == null ? 0 : r.number("abortRate");
        return head + String.format(Locale.ROOT, ": %,.1f txn/s, abort %.1f%% -> %s/   %s", r.number("throughput"),
                abort * 100, p.dir(), progress.bar(0));
    }

    /** Draws the charts from the points so far; a chart that cannot be drawn is a warning. */
    private List<Path> charts() {
        String title = sweep.points().get(0).experiment().name();
        if (sweep.keys().contains("experiment")) {
            title = "sweep";
        }
        try {
            return SweepCharts.write(dir, sweep.keys(), results, title);
        } catch (IOException e) {
            err.println("warning: sweep charts not written: " + e.getMessage());
            err.flush();
            return List.of();
        }
    }

    private long count(PointResult.Status s) {
        return results.stream().filter(r -> r.status() == s).count();
    }
}
