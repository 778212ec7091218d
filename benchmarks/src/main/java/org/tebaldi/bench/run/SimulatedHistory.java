package org.tebaldi.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.tebaldi.core.history.HistorySpill;
import org.tebaldi.core.history.IncrementalChecker;
import org.tebaldi.core.history.SpillCheck;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.server.cluster.Cluster;

/**
 * The history of a simulated run with {@code verify} on, recorded the way an embedded run's {@code verify: true}
 * records it (docs/simulation.md, "Calibration"; docs/architecture.md, "Verification"): every node hands its
 * history over every {@value HistoryCheck#HANDOVER_MICROS} virtual µs to a {@link HistorySpill} in a temporary
 * directory, with a pruning pass every {@value HistoryCheck#PASS_MILLIS} virtual ms, and the spill is checked after
 * the run ({@link SpillCheck}) — outside virtual time. So the simulated nodes run the same handlers and timers as
 * the real run the cost table was calibrated on (the hand-over timers, the data servers' reports of final versions),
 * and the table's costs apply to them. A cluster with more nodes than the checker's sources
 * ({@value IncrementalChecker#MAX_SOURCES}) keeps its whole history in memory and is checked after the run instead
 * ({@link #start} returns null). One instance per run.
 */
final class SimulatedHistory implements AutoCloseable {
    private final Path dir;
    private final HistorySpill spill;
    private boolean keep;

    private SimulatedHistory(Path dir, HistorySpill spill) {
        this.dir = dir;
        this.spill = spill;
    }

    /**
     * Spills {@code cluster}'s history while {@code sim} runs; call before the cluster starts.
     *
     * @return null when the cluster has more nodes than the checker's sources (checked whole after the run)
     * @throws RunFailedException if the spill cannot be created
     */
    static SimulatedHistory start(Cluster cluster, SimulatedRuntime sim) throws RunFailedException {
        if (cluster.historySources() > IncrementalChecker.MAX_SOURCES) {
            return null;
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory("tebaldi-sim-history-");
            HistorySpill spill = new HistorySpill(dir, cluster.historySources(), 0,
                    HistorySpill.DEFAULT_SEGMENT_BYTES);
            cluster.handOverHistory(spill, HistoryCheck.HANDOVER_MICROS);
            long period = HistoryCheck.PASS_MILLIS * 1000;
            Runnable[] pass = new Runnable[1];
            pass[0] = () -> {
                spill.pass();
                sim.at(sim.nowMicros() + period, pass[0]);
            };
            sim.at(period, pass[0]);
            return new SimulatedHistory(dir, spill);
        } catch (IOException e) {
            delete(dir);
            throw new RunFailedException("cannot spill the simulated run's history: " + e.getMessage(), e);
        }
    }

    /**
     * Once the cluster stopped: every node's last hand-over, then the check of the spill.
     *
     * @return the verdict and one line about the check
     * @throws RunFailedException if the spill could not be written or read
     * @throws InterruptedException if interrupted while the spill is completed
     */
    HistoryCheck.Verdict finish(Cluster cluster, RunListener listener) throws RunFailedException,
            InterruptedException {
        cluster.finishHistoryStream();
        SpillCheck.Result r;
        try {
            spill.finish();
            r = new SpillCheck(dir, spill.sources()).run();
        } catch (IOException e) {
            throw new RunFailedException("the simulated run's history spill in " + dir + " failed: " + e.getMessage(),
                    e);
        }
        boolean ok = r.verdict().serializable();
        if (!ok) {
            keep = true;
            listener.phase("the spilled history stays in " + dir + " (check it again: scripts/tebaldi check-history "
                    + dir + ")");
        }
        return new HistoryCheck.Verdict(ok, r.verdict().summary(), String.format(Locale.ROOT, "history spilled "
                        + "during the simulation and checked after it: %s; %,d MB in %.1f s; at most %,d transactions "
                        + "held at once", ok ? "serializable" : "NOT serializable", r.bytes() >> 20,
                r.millis() / 1000.0, r.maxHeld()));
    }

    /** Stops the spill writer and deletes the spill, unless its check failed. */
    @Override
    public void close() {
        spill.close();
        if (!keep) {
            delete(dir);
        }
    }

    private static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException ignored) {
            // a temporary directory: the operating system's clean-up takes what is left
        }
    }
}
