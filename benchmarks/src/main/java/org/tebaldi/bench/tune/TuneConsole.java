package org.tebaldi.bench.tune;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.tebaldi.autoconf.configurator.Bottleneck;
import org.tebaldi.autoconf.configurator.Candidate;
import org.tebaldi.autoconf.configurator.Configurator;
import org.tebaldi.autoconf.configurator.Iteration;
import org.tebaldi.autoconf.configurator.Window;
import org.tebaldi.core.tree.CcTree;

/**
 * What {@code tebaldi tune} prints about tuning (lines start with {@code tune}): each iteration's bottleneck edge
 * and score, every candidate with its windows (txn/s, and how long throughput took to settle after the swap), its
 * mean, gain interval and verdict (or why it was rejected), the winner's confirmation, the decision, the daemon's
 * reference and re-entries, and the end. Thread-safe (printing is synchronized on the writer).
 */
public final class TuneConsole {
    private final PrintWriter out;

    /**
     * A daemon event — a re-entry, or an engine drift it did not re-tune for: when (ns on the daemon's clock:
     * {@link System#nanoTime()}, or virtual) and why.
     */
    record Reentry(long nanos, String why) {
    }

    public TuneConsole(PrintWriter out) {
        this.out = out;
    }

    private void print(String fmt, Object... args) {
        synchronized (out) {
            out.println("tune  " + String.format(Locale.ROOT, fmt, args));
            out.flush();
        }
    }

    void start(CcTree tree) {
        print("warm-up over; tuning from %s", tree.describe());
    }

    void daemon(String why) {
        print("tuning pass done: %s; the daemon stays on until the run's duration ends", why);
    }

    void done(String why, CcTree last, double finalTxnPerSec) {
        print("done: %s", why);
        print("final tree %s: %,.0f txn/s", last.describe(), finalTxnPerSec);
    }

    void interrupted(String why) {
        print("%s", why);
    }

    /** A listener recording iterations and printing as they go; re-entries timed on {@code clock} (ns). */
    Recorder recorder(java.util.function.LongSupplier clock) {
        return new Recorder(clock);
    }

    /** Records and prints the configurator's progress. */
    final class Recorder implements Configurator.Listener {
        private final List<Iteration> iterations = new CopyOnWriteArrayList<>();
        private final List<Reentry> reentries = new CopyOnWriteArrayList<>();
        private final List<Reentry> drifts = new CopyOnWriteArrayList<>();
        private final StringBuilder windows = new StringBuilder();
        private volatile String why = "running";
        private volatile CcTree last;
        private volatile boolean tuning = true;
        private final java.util.function.LongSupplier clock;

        Recorder(java.util.function.LongSupplier clock) {
            this.clock = clock;
        }

        List<Iteration> iterations() {
            return iterations;
        }

        /** The engine drifts the daemon reported and did not re-tune for. */
        List<Reentry> drifts() {
            return drifts;
        }

        List<Reentry> reentries() {
            return reentries;
        }

        String finishedWhy() {
            return why;
        }

        CcTree last() {
            return last;
        }

        /** Whether a tuning pass is under way (false while the daemon only watches). */
        boolean tuning() {
            return tuning;
        }

        @Override
        public void analyzed(int i, Bottleneck b, double base) {
            if (b == null) {
                print("iteration %d: no blocking; current tree runs at %,.0f txn/s", i, base);
                return;
            }
            String next = b.edges().stream().skip(1).limit(3)
                    .map(e -> String.format(Locale.ROOT, "%s %.1f", e.name(), e.scoreMicrosPerSec() / 1000))
                    .collect(Collectors.joining(", "));
            print("iteration %d: bottleneck %s, %.1f ms blocked per s%s; current tree runs at %,.0f txn/s", i,
                    b.edge(), b.scoreMicrosPerSec() / 1000, next.isEmpty() ? "" : " (next: " + next + ")", base);
        }

        @Override
        public void exploring(int i, int rank, Bottleneck.Edge e) {
            if (rank > 1) {
                print("  nothing significantly better for the bottleneck; next edge %s (%.1f ms blocked per s)",
                        e.name(), e.scoreMicrosPerSec() / 1000);
            }
        }

        @Override
        public void testing(int i, int index, int count, Candidate c) {
            print("  candidate %d/%d: %s", index, count, c);
        }

        @Override
        public void measured(int i, Window w) {
            if (!tuning) {
                return;
            }
            synchronized (windows) {
                windows.append(windows.length() == 0 ? "" : " ").append(w.tree().equals("candidate") ? "B " : "A ")
                        .append(String.format(Locale.ROOT, "%,.0f", w.txnPerSec()));
                if (w.settleSamples() > 0) {
                    windows.append(String.format(Locale.ROOT, " (settled %d ms%s)", w.settleSamples() * 100,
                            w.settleTimedOut() ? ", gave up" : ""));
                }
            }
        }

        private String drainWindows() {
            synchronized (windows) {
                String s = windows.toString();
                windows.setLength(0);
                return s;
            }
        }

        @Override
        public void tried(int i, Iteration.Trial t) {
            if (t.rejected() != null) {
                print("  rejected %s: %s", t.candidate().tree().describe(), t.rejected());
            } else {
                print("    windows (A incumbent, B candidate, txn/s): %s", drainWindows());
                print("    candidate %,.0f txn/s vs %,.0f: gain %s -> %s", t.txnPerSec(),
                        t.estimate().incumbentTxnPerSec(), t.estimate().describe(), t.verdict());
            }
        }

        @Override
        public void confirming(int i, Iteration.Trial winner) {
            drainWindows();
            print("  confirming the best, %s, on fresh windows", winner.candidate().tree().describe());
        }

        @Override
        public void decided(Iteration it, String swap) {
            iterations.add(it);
            last = it.adopted();
            if (it.bottleneck() == null) {
                drainWindows();
                return;
            }
            if (it.confirmation() != null) {
                print("    windows (A incumbent, W winner, txn/s): %s", drainWindows().replace("B ", "W "));
            }
            if (it.improved()) {
                print("  decision: adopt %s (%,.0f txn/s, confirmed gain %s)", it.adopted().describe(),
                        it.adoptedTxnPerSec(), it.confirmation().describe());
            } else if (it.confirmation() != null) {
                print("  decision: keep %s (%,.0f txn/s): the winner's gain %s was not confirmed%s",
                        it.start().describe(), it.startTxnPerSec(), it.confirmation().describe(),
                        swap == null ? "" : "; " + swap);
            } else if (it.trials().isEmpty()) {
                print("  decision: keep %s (%,.0f txn/s): no bottleneck above minScore", it.start().describe(),
                        it.startTxnPerSec());
            } else {
                print("  decision: keep %s (%,.0f txn/s): no candidate significantly better", it.start().describe(),
                        it.startTxnPerSec());
            }
        }

        @Override
        public void finished(String reason) {
            why = reason;
            tuning = false;
        }

        @Override
        public void watching(CcTree tree, double reference, String edge) {
            tuning = false;
            last = tree;
            print("daemon: watching %s, reference %,.0f txn/s, bottleneck %s", tree.describe(), reference,
                    edge == null ? "none above minScore" : edge);
        }

        @Override
        public void reentering(String reason) {
            tuning = true;
            reentries.add(new Reentry(clock.getAsLong(), reason));
            print("daemon: re-entering tuning: %s", reason);
        }

        @Override
        public void engineDrift(String why) {
            drifts.add(new Reentry(clock.getAsLong(), why));
            print("daemon: %s", why);
        }
    }
}
