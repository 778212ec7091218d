package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.tebaldi.autoconf.stats.GainEstimate;
import org.tebaldi.autoconf.stats.MixChange;
import org.tebaldi.core.tree.CcTree;

/**
 * The tuning daemon after a tuning pass (docs/autoconf.md, "The daemon"): it tells a workload change, which a new
 * tree may serve better, from an engine drift — a collector's pauses, growing data, another tenant — which no tree
 * fixes. It measures a reference of the running tree — {@code rounds} windows, an analysis, and the committed
 * transactions per type over both (the <em>workload signature</em>: the type mix and the bottleneck edge) — then
 * repeats cycles of one analysis and one window, and
 * <ul>
 *   <li>re-enters tuning when the cycle's type mix differs from the reference's ({@link MixChange}: Hellinger
 *       distance at least {@code mixThreshold} and a homogeneity test significant at {@code mixAlpha}), or a new
 *       bottleneck edge above {@code minScore} is named, in {@code persist} consecutive cycles; afterwards the
 *       reference is measured again, so a change is acted on once;</li>
 *   <li>when throughput drifts but the signature holds — the last {@code rounds} windows' change against the
 *       reference has an interval beyond ±{@code drift}, or each of them lies beyond twice that on the same side
 *       (stalls widen any interval), in {@code persist} consecutive cycles — reports an engine drift with the
 *       collector's share of the time and the heap ({@link Configurator.Listener#engineDrift}), does not re-tune,
 *       and takes the last windows as the new throughput reference (so one drift is reported once).</li>
 * </ul>
 * A closed loop's type mix does not move with the engine's speed (each client draws its next type when the previous
 * transaction ended), which is why it is the signature; a target that cannot count commits per type leaves the
 * bottleneck edge alone as the signature. Not CC code: runs on the configurator's thread and blocks in the target.
 */
final class Daemon {
    private final Configurator tuner;
    private final Configurator.Settings s;
    private final Configurator.Target target;
    private final Configurator.Listener l;
    private final Configurator.Watch w;
    private final Meter meter;

    Daemon(Configurator tuner, Configurator.Settings s, Configurator.Target target, Configurator.Listener l,
           Configurator.Watch w) {
        this.tuner = tuner;
        this.s = s;
        this.target = target;
        this.l = l;
        this.w = w;
        this.meter = new Meter(target, s);
    }

    /** Watches {@code current} until interrupted, re-tuning on workload changes. */
    void watch(CcTree current) throws InterruptedException {
        while (true) {
            String why = watchUntilChange(current);
            l.reentering(why);
            List<Iteration> its = tuner.run(current, target, l);
            current = its.get(its.size() - 1).adopted();
        }
    }

    /** Measures the reference, then cycles until the signature changed; returns why. */
    private String watchUntilChange(CcTree current) throws InterruptedException {
        long[] m0 = target.typeCommits();
        List<Double> reference = new ArrayList<>();
        for (int r = 0; r < s.rounds(); r++) {
            reference.add(window(r == 0));
        }
        String edge = tuner.edge(target.analyze());
        long[] refMix = minus(target.typeCommits(), m0);
        l.watching(current, mean(reference), edge);
        List<Double> recent = new ArrayList<>();
        int mixed = 0;
        int changed = 0;
        int drifted = 0;
        Configurator.EngineState driftStart = null;
        while (true) {
            Configurator.EngineState e0 = target.engine();
            long[] c0 = target.typeCommits();
            String now = tuner.edge(target.analyze());
            recent.add(window(false));
            MixChange mix = refMix == null ? null
                    : MixChange.of(refMix, minus(target.typeCommits(), c0), w.mixThreshold(), w.mixAlpha());
            mixed = mix != null && mix.changed() ? mixed + 1 : 0;
            changed = Objects.equals(now, edge) ? 0 : changed + 1;
            if (mixed >= w.persist()) {
                return "workload mix changed: " + mix.describe() + " against the reference, in " + mixed
                        + " consecutive cycles";
            }
            if (changed >= w.persist()) {
                return "bottleneck changed from " + (edge == null ? "none" : edge) + " to "
                        + (now == null ? "none" : now);
            }
            if (recent.size() > s.rounds()) {
                recent.remove(0);
            }
            GainEstimate g = recent.size() < s.rounds() ? null : GainEstimate.of(reference, recent, s.confidence());
            boolean drifting = g != null && (g.above(w.drift()) || g.below(-w.drift())
                    || allBeyond(recent, mean(reference), 2 * w.drift()));
            driftStart = drifting && drifted == 0 ? e0 : driftStart;
            drifted = drifting ? drifted + 1 : 0;
            if (drifted >= w.persist()) {
                l.engineDrift("throughput drifted " + g.describe() + " from the reference "
                        + Math.round(g.incumbentTxnPerSec()) + " txn/s (last windows " + recent.stream()
                        .map(x -> String.valueOf(Math.round(x))).toList() + ") while the workload held ("
                        + (mix == null ? "mix not measured" : mix.describe()) + ", bottleneck "
                        + (now == null ? "none" : now) + "): engine drift (" + engine(driftStart, target.engine())
                        + "); not re-tuning");
                reference = new ArrayList<>(recent);
                drifted = 0;
            }
        }
    }

    private double window(boolean swapped) throws InterruptedException {
        return Math.max(Comparisons.FLOOR_TXN_PER_SEC, meter.window("incumbent", swapped).txnPerSec());
    }

    /** E.g. {@code GC 15.7% of 15.0 s, heap 3,512 MB}, or why that is not known. */
    static String engine(Configurator.EngineState from, Configurator.EngineState to) {
        if (from == null || to == null) {
            return "GC and heap not measured: no collector in virtual time";
        }
        double span = Math.max(1, to.nanos() - from.nanos()) / 1e6;
        return String.format(Locale.ROOT, "GC %.1f%% of %.1f s, heap %,d MB",
                100.0 * (to.gcMillis() - from.gcMillis()) / span, span / 1000, to.heapBytes() >> 20);
    }

    /** {@code a - b} per element, or null if either is null. */
    private static long[] minus(long[] a, long[] b) {
        if (a == null || b == null) {
            return null;
        }
        long[] d = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - (i < b.length ? b[i] : 0);
        }
        return d;
    }

    /**
     * Whether every window lies beyond ±{@code drift} of {@code reference}, on the same side: a test that stalls
     * (a window near zero, e.g. a long GC pause) cannot widen, unlike the interval.
     */
    private static boolean allBeyond(List<Double> windows, double reference, double drift) {
        boolean low = true;
        boolean high = true;
        for (double x : windows) {
            low &= x < reference * (1 - drift);
            high &= x > reference * (1 + drift);
        }
        return low || high;
    }

    private static double mean(List<Double> xs) {
        double sum = 0;
        for (double x : xs) {
            sum += x;
        }
        return sum / xs.size();
    }
}
