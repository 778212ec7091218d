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
import org.tebaldi.core.tree.CcTree;

/**
 * What {@code tebaldi tune} prints about tuning (lines start with {@code tune}): each iteration's bottleneck edge
 * and score, the starting tree's throughput, every candidate with its swap and measured throughput (or why it was
 * rejected), the decision, and the end. Thread-safe (printing is synchronized on the writer).
 */
public final class TuneConsole {
    private final PrintWriter out;

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

    void done(String why, CcTree last, double finalTxnPerSec) {
        print("done: %s", why);
        print("final tree %s: %,.0f txn/s", last.describe(), finalTxnPerSec);
    }

    void interrupted(String why) {
        print("%s", why);
    }

    /** A listener recording iterations and printing as they go. */
    Recorder recorder() {
        return new Recorder();
    }

    /** Records and prints the configurator's progress. */
    final class Recorder implements Configurator.Listener {
        private final List<Iteration> iterations = new CopyOnWriteArrayList<>();
        private volatile String why = "running";
        private volatile CcTree last;

        List<Iteration> iterations() {
            return iterations;
        }

        String finishedWhy() {
            return why;
        }

        CcTree last() {
            return last;
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
                print("  nothing better for the bottleneck yet; next edge %s (%.1f ms blocked per s)", e.name(),
                        e.scoreMicrosPerSec() / 1000);
            }
        }

        @Override
        public void testing(int i, int index, int count, Candidate c) {
            print("  candidate %d/%d: %s", index, count, c);
        }

        @Override
        public void tried(int i, Iteration.Trial t, String swap) {
            if (t.rejected() != null) {
                print("  rejected %s: %s", t.candidate().tree().describe(), t.rejected());
            } else {
                print("    %s -> %,.0f txn/s", swap, t.txnPerSec());
            }
        }

        @Override
        public void remeasured(int i, String swap, double tps, double baseline) {
            print("    back to the current tree (%s) -> %,.0f txn/s; baseline now %,.0f txn/s", swap, tps, baseline);
        }

        @Override
        public void decided(Iteration it, String swap) {
            iterations.add(it);
            last = it.adopted();
            if (it.bottleneck() == null) {
                return;
            }
            if (it.improved()) {
                print("  decision: adopt %s (%,.0f txn/s, %+.0f%%)%s", it.adopted().describe(), it.adoptedTxnPerSec(),
                        100 * (it.adoptedTxnPerSec() / it.startTxnPerSec() - 1), swap == null ? "" : "; " + swap);
            } else {
                print("  decision: keep %s (%,.0f txn/s)", it.start().describe(), it.startTxnPerSec());
            }
        }

        @Override
        public void finished(String reason) {
            why = reason;
        }
    }
}
