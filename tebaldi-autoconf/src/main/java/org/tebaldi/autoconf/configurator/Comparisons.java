package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.autoconf.stats.GainEstimate;
import org.tebaldi.core.tree.CcTree;

/**
 * The testing stage with confidence (docs/autoconf.md, "Comparisons with confidence"): a candidate and the
 * incumbent are measured in interleaved windows — the incumbent's window before, then {@code rounds} times the
 * candidate's window and the incumbent's (A B A B A B A) — and the gain is a {@link GainEstimate#interleaved} over
 * their window means (each candidate window against its neighbours). A promising but undecided candidate (point
 * estimate above {@code minGain}, interval reaching below it) gets further rounds, up to {@code maxRounds}. Every
 * swap is followed by settle detection ({@link Meter}). The winner of an iteration is then confirmed on fresh
 * windows (A W A W A W, ending on W), so picking the best of several candidates cannot turn the screening's noise
 * into an adoption (the winner's curse); the confirmation gets further rounds, up to {@code maxRounds}, while its
 * interval straddles {@code minGain}. Blocks on the target.
 */
final class Comparisons {
    /** A window with no commit counts as this throughput, txn/s (the log scale needs a positive value). */
    static final double FLOOR_TXN_PER_SEC = 0.1;

    private final Configurator.Target target;
    private final Configurator.Settings s;
    private final Configurator.Listener l;
    private final Meter meter;
    private final List<Double> incumbent = new ArrayList<>();
    private double lastIncumbent = Double.NaN;

    Comparisons(Configurator.Target target, Configurator.Settings s, Configurator.Listener l) {
        this.target = target;
        this.s = s;
        this.l = l;
        this.meter = new Meter(target, s);
    }

    /** Measures the incumbent once, without a swap (the iteration's first window). */
    double baseline(int iteration) throws InterruptedException {
        Window w = meter.window("incumbent", false);
        l.measured(iteration, w);
        lastIncumbent = floor(w.txnPerSec());
        incumbent.add(lastIncumbent);
        return w.txnPerSec();
    }

    /** Mean of every incumbent window measured in this iteration, txn/s. */
    double incumbentMean() {
        double sum = 0;
        for (double x : incumbent) {
            sum += x;
        }
        return sum / incumbent.size();
    }

    /**
     * Screens one candidate: A (the last incumbent window) then {@code rounds} × (candidate, incumbent); the
     * cluster runs the incumbent again afterwards.
     *
     * @return the candidate's gain over the incumbent windows adjacent to its own
     */
    GainEstimate screen(int iteration, CcTree current, CcTree candidate) throws InterruptedException {
        List<Double> a = new ArrayList<>(List.of(lastIncumbent));
        List<Double> b = new ArrayList<>();
        for (int r = 0; r < s.rounds() || another(a, b, s.confidence(), r, true); r++) {
            String swap = target.swap(candidate);
            l.swapped(iteration, swap);
            b.add(measure(iteration, "candidate"));
            swap = target.swap(current);
            l.swapped(iteration, swap);
            lastIncumbent = measure(iteration, "incumbent");
            a.add(lastIncumbent);
            incumbent.add(lastIncumbent);
        }
        return GainEstimate.interleaved(a, b, s.confidence());
    }

    /**
     * Confirms a winner on fresh windows: {@code rounds} × (winner, incumbent) with the last incumbent window
     * first, ending on the winner (A W A W A W) — the cluster then runs the winner.
     *
     * @param confidence the interval's level (stricter for a tree abandoned earlier in the session)
     */
    GainEstimate confirm(int iteration, CcTree current, CcTree winner, double confidence)
            throws InterruptedException {
        List<Double> a = new ArrayList<>(List.of(lastIncumbent));
        List<Double> b = new ArrayList<>();
        for (int r = 0; r < s.rounds() || another(a, b, confidence, r, false); r++) {
            if (r > 0) {
                String swap = target.swap(current);
                l.swapped(iteration, swap);
                lastIncumbent = measure(iteration, "incumbent");
                a.add(lastIncumbent);
                incumbent.add(lastIncumbent);
            }
            String swap = target.swap(winner);
            l.swapped(iteration, swap);
            b.add(measure(iteration, "candidate"));
        }
        return GainEstimate.interleaved(a, b, confidence);
    }

    /**
     * Whether to measure another round after {@code done}: below {@code maxRounds}, and the interval's lower end is
     * still not above {@code minGain} while the gain may yet exceed it — its point estimate ({@code screening}: a
     * promising candidate) or its upper end (confirmation: the winner passed screening, and an unlucky few windows
     * must not decide alone).
     */
    private boolean another(List<Double> a, List<Double> b, double confidence, int done, boolean screening) {
        if (done >= s.maxRounds()) {
            return false;
        }
        GainEstimate g = GainEstimate.interleaved(a, b, confidence);
        return !g.above(s.minGain()) && (screening ? g.gain() : g.high()) > s.minGain();
    }

    private double measure(int iteration, String label) throws InterruptedException {
        Window w = meter.window(label, true);
        l.measured(iteration, w);
        return floor(w.txnPerSec());
    }

    private static double floor(double txnPerSec) {
        return Math.max(FLOOR_TXN_PER_SEC, txnPerSec);
    }
}
