package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tebaldi.autoconf.stats.GainEstimate;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;

/**
 * The automatic configuration algorithm (dissertation Fig 5.1, §5.2–§5.5) with decisions that hold up under a noisy
 * machine (docs/autoconf.md): starting from a tree (the initial configuration of Fig 5.2, {@link InitialTree}), each
 * iteration finds the most severe bottleneck conflict edge (analysis stage), proposes candidates ({@link Proposals}:
 * strategies of §5.4.1, filters, preprocessing), and tests each against the running tree in interleaved windows
 * ({@link Comparisons}: A B A B A B A, every swap followed by settle detection); a candidate whose gain's interval
 * lies above {@code minGain} passes screening, the best of those (by the interval's lower end) is confirmed on fresh
 * windows, and adopted only if the confirmation's interval lies above {@code minGain} again. Stops when no
 * bottleneck is found, no candidate is significantly better, or after {@code maxIterations}.
 *
 * <p>Refinement of Fig 5.1: when no candidate for the most severe edge is significantly better, the iteration goes
 * on to the next most severe edges (at most {@code edgesPerIteration}, each above {@code minScore}): a bottleneck
 * the current tree already handles as well as it can (e.g. runtime pipelining's step waits between new_order and
 * payment) would otherwise hide the next one (payment against itself, §5.6.1's second iteration). With
 * {@code edgesPerIteration = 1} the loop is Fig 5.1's.
 *
 * <p>Flapping guard: a tree abandoned earlier in the session (the start tree or an adopted tree that was later
 * replaced) is re-adopted only when its confirmation interval at {@code abandonedConfidence} lies above
 * {@code minGain}. {@link #watch} keeps the daemon on after tuning and re-enters tuning only when the workload's
 * signature (type mix, bottleneck edge) changes; a throughput drift without it is an engine drift, reported only.
 *
 * <p>Runs on its own thread and blocks in {@link Target}; it is not CC code. One instance is one session.
 */
public final class Configurator {
    /** What the configurator drives: the running cluster, or a model of it in tests. */
    public interface Target {
        /** Profiles the running tree for one analysis period; null if nothing blocked. */
        Bottleneck analyze() throws InterruptedException;

        /**
         * The running tree's throughput over the next {@code count} sample periods (100 ms on a live cluster),
         * one value per period, txn/s; blocks for that long.
         */
        double[] sample(int count) throws InterruptedException;

        /** Swaps the cluster to {@code tree} (blocks until it runs); returns a description of the swap. */
        String swap(CcTree tree) throws InterruptedException;

        /**
         * Committed transactions per type so far, cumulative, indexed by the database's type id (the daemon's
         * workload signature takes differences); null if the target cannot tell (then the daemon watches the
         * bottleneck edge only).
         */
        default long[] typeCommits() {
            return null;
        }

        /** The engine's state now, for the daemon's engine-drift report; null if unknown (e.g. in virtual time). */
        default EngineState engine() {
            return null;
        }
    }

    /**
     * What the engine's host looked like at one instant: cumulative collector time and the heap in use.
     *
     * @param nanos     when, ns on the real monotonic clock
     * @param gcMillis  garbage-collection time so far, ms (all collectors)
     * @param heapBytes heap in use now, bytes
     */
    public record EngineState(long nanos, long gcMillis, long heapBytes) {
    }

    /** Receives progress, on the configurator's thread. */
    public interface Listener {
        /** The iteration's analysis and first incumbent window are known. */
        default void analyzed(int iteration, Bottleneck b, double baselineTxnPerSec) {
        }

        /** The iteration turns to an edge ({@code rank} 1 for the bottleneck, 2 for the next, ...). */
        default void exploring(int iteration, int rank, Bottleneck.Edge edge) {
        }

        /** A candidate passed the filters and is about to be screened. */
        default void testing(int iteration, int index, int count, Candidate c) {
        }

        /** A swap completed ({@code swap} describes it). */
        default void swapped(int iteration, String swap) {
        }

        /** A window was measured. */
        default void measured(int iteration, Window w) {
        }

        /** A candidate was screened (or rejected, with {@code t.rejected()} saying why). */
        default void tried(int iteration, Iteration.Trial t) {
        }

        /** The screening's winner is about to be confirmed on fresh windows. */
        default void confirming(int iteration, Iteration.Trial winner) {
        }

        /** The iteration ended ({@code swap}: the swap that put the adopted tree in place, or null). */
        default void decided(Iteration it, String swap) {
        }

        /** Tuning ended, with the reason. */
        default void finished(String why) {
        }

        /** The daemon watches the running tree: its reference throughput (txn/s) and bottleneck edge (or null). */
        default void watching(CcTree tree, double referenceTxnPerSec, String edge) {
        }

        /** The daemon re-enters tuning, with the reason. */
        default void reentering(String why) {
        }

        /**
         * The daemon saw throughput drift while the workload's signature held: an engine drift (a collector, growing
         * data, another tenant), reported and not re-tuned; {@code why} gives the drift, the signature and the
         * engine's state.
         */
        default void engineDrift(String why) {
        }
    }

    /**
     * Settings.
     *
     * @param mechanisms    mechanisms the strategies try for new nodes (the "good under contention" filter),
     *                      e.g. {@code [rp, tso]}
     * @param maxIterations iterations per tuning pass at most
     * @param minGain       relative gain a candidate's interval must lie above to be adopted, e.g. 0.03
     * @param minScore      bottleneck score (µs blocked per s) below which the analysis counts as "no bottleneck"
     * @param maxCandidates candidates screened per edge at most (in proposal order)
     * @param edgesPerIteration conflict edges explored per iteration at most, most severe first (1: Fig 5.1)
     * @param rounds        candidate windows per screening and per confirmation, interleaved with as many
     *                      incumbent windows (at least 2; the experiment reader asks for 3)
     * @param maxRounds     rounds at most, for a promising candidate whose interval still reaches below minGain
     * @param confidence    level of the gain intervals, e.g. 0.9 (adoption is then a one-sided test at 5%)
     * @param abandonedConfidence level of the confirmation interval for a tree abandoned earlier, e.g. 0.99
     * @param windowSamples samples per measurement window (a sample is the target's sample period)
     * @param settleWindowSamples samples the settle detector's trend test looks at
     * @param settleAlpha   significance level of that trend test
     * @param maxSettleSamples samples after a swap after which settle detection gives up
     */
    public record Settings(List<String> mechanisms, int maxIterations, double minGain, double minScore,
                           int maxCandidates, int edgesPerIteration, int rounds, int maxRounds, double confidence,
                           double abandonedConfidence, int windowSamples, int settleWindowSamples,
                           double settleAlpha, int maxSettleSamples) {
        /** @throws IllegalArgumentException for fewer than 2 rounds or a window below 1 sample */
        public Settings {
            if (rounds < 2 || maxRounds < rounds || windowSamples < 1) {
                throw new IllegalArgumentException("need 2 <= rounds <= maxRounds and windowSamples >= 1, got "
                        + rounds + ", " + maxRounds + ", " + windowSamples);
            }
            mechanisms = List.copyOf(mechanisms);
        }
    }

    /**
     * When the daemon re-enters tuning or reports an engine drift ({@link #watch}, {@link Daemon}).
     *
     * @param drift        relative throughput change whose interval must exclude it for an engine drift, e.g. 0.15
     * @param persist      consecutive cycles that must show a mix change, a new bottleneck edge, or the drift
     * @param mixThreshold smallest Hellinger distance between type shares that counts as a mix change, e.g. 0.1
     * @param mixAlpha     significance level of the mix change's homogeneity test, e.g. 0.001
     */
    public record Watch(double drift, int persist, double mixThreshold, double mixAlpha) {
        /** The mix test's defaults: distance 0.1, level 0.001 ({@link org.tebaldi.autoconf.stats.MixChange}). */
        public Watch(double drift, int persist) {
            this(drift, persist, DEFAULT_MIX_THRESHOLD, DEFAULT_MIX_ALPHA);
        }
    }

    /** Default {@link Watch#mixThreshold}. */
    public static final double DEFAULT_MIX_THRESHOLD = 0.1;
    /** Default {@link Watch#mixAlpha}. */
    public static final double DEFAULT_MIX_ALPHA = 0.001;

    private final Settings settings;
    private final Proposals proposals;
    private final Set<String> abandoned = new HashSet<>();
    private int iterations;

    /** @throws IllegalArgumentException (when run) for a mechanism name {@code ctx} does not know */
    public Configurator(TreeContext ctx, Settings settings) {
        this.settings = settings;
        this.proposals = new Proposals(ctx, settings.mechanisms());
    }

    /**
     * Runs one tuning pass from {@code start}, which must be the tree the target runs.
     *
     * @return this pass's iterations, in order; the last one's {@code adopted} tree is the result
     * @throws InterruptedException if interrupted (the target keeps the tree it runs)
     */
    public List<Iteration> run(CcTree start, Target target, Listener l) throws InterruptedException {
        List<Iteration> done = new ArrayList<>();
        CcTree current = start;
        for (int n = 1; n <= settings.maxIterations(); n++) {
            int i = ++iterations;
            Bottleneck b = target.analyze();
            Comparisons cmp = new Comparisons(target, settings, l);
            double base = cmp.baseline(i);
            l.analyzed(i, b, base);
            if (b == null || b.scoreMicrosPerSec() < settings.minScore()) {
                Iteration it = new Iteration(i, current, base, b, List.of(), current, base, false, null);
                done.add(it);
                l.decided(it, null);
                l.finished(b == null ? "no blocking found" : "no bottleneck above " + settings.minScore()
                        + " µs/s (most severe: " + b.edge() + ", " + Math.round(b.scoreMicrosPerSec()) + " µs/s)");
                return done;
            }
            Iteration it = iterate(i, current, b, cmp, target, l);
            done.add(it);
            if (!it.improved()) {
                l.finished("no candidate significantly better than " + it.start().describe() + " (gain above "
                        + pct(settings.minGain()) + " at " + pct(settings.confidence()) + " confidence)");
                return done;
            }
            abandoned.add(current.canonical());
            current = it.adopted();
        }
        l.finished("reached " + settings.maxIterations() + " iterations");
        return done;
    }

    private Iteration iterate(int i, CcTree current, Bottleneck b, Comparisons cmp, Target target, Listener l)
            throws InterruptedException {
        List<Iteration.Trial> trials = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        seen.add(current.canonical());
        Iteration.Trial best = null;
        int rank = 0;
        for (Bottleneck.Edge e : b.edges()) {
            if (rank == settings.edgesPerIteration() || e.scoreMicrosPerSec() < settings.minScore()) {
                break;
            }
            rank++;
            l.exploring(i, rank, e);
            List<Iteration.Trial> rejected = new ArrayList<>();
            List<Candidate> runnable = new ArrayList<>();
            for (Candidate c : proposals.of(current, e, rejected)) {
                if (seen.add(c.tree().canonical())) {
                    runnable.add(c);
                }
            }
            List<Candidate> tested = runnable.subList(0, Math.min(runnable.size(), settings.maxCandidates()));
            for (Candidate c : runnable.subList(tested.size(), runnable.size())) {
                rejected.add(Iteration.Trial.rejected(e.name(), c, "over maxCandidates ("
                        + settings.maxCandidates() + ")"));
            }
            for (Iteration.Trial t : rejected) {
                trials.add(t);
                l.tried(i, t);
            }
            for (int k = 0; k < tested.size(); k++) {
                Candidate c = tested.get(k);
                l.testing(i, k + 1, tested.size(), c);
                GainEstimate g = cmp.screen(i, current, c.tree());
                String verdict = g.above(settings.minGain()) ? Iteration.BETTER
                        : g.below(0) ? Iteration.WORSE : Iteration.NOT_SIGNIFICANT;
                Iteration.Trial t = new Iteration.Trial(e.name(), c, g.candidateTxnPerSec(), g, verdict, null);
                trials.add(t);
                l.tried(i, t);
                if (verdict.equals(Iteration.BETTER) && (best == null || g.low() > best.estimate().low())) {
                    best = t;
                }
            }
            if (best != null) {
                break;
            }
        }
        if (best == null) {
            Iteration it = new Iteration(i, current, cmp.incumbentMean(), b, trials, current, cmp.incumbentMean(),
                    false, null);
            l.decided(it, null);
            return it;
        }
        l.confirming(i, best);
        CcTree winner = best.candidate().tree();
        boolean wasAbandoned = abandoned.contains(winner.canonical());
        GainEstimate conf = cmp.confirm(i, current, winner, wasAbandoned ? settings.abandonedConfidence()
                : settings.confidence());
        boolean improved = conf.above(settings.minGain());
        String swap = improved ? null : target.swap(current);
        if (swap != null) {
            l.swapped(i, swap);
        }
        Iteration it = new Iteration(i, current, cmp.incumbentMean(), b, trials, improved ? winner : current,
                improved ? conf.candidateTxnPerSec() : cmp.incumbentMean(), improved, conf);
        l.decided(it, swap);
        return it;
    }

    /**
     * The long-running daemon after a tuning pass ({@link Daemon}): re-enters tuning ({@link #run}) only when the
     * workload's signature changes — the transaction-type mix ({@link org.tebaldi.autoconf.stats.MixChange}) or the
     * bottleneck edge, each in {@code persist} consecutive cycles; a throughput drift with the signature unchanged
     * is reported as an engine drift ({@link Listener#engineDrift}) and not re-tuned. Returns only when interrupted.
     *
     * @throws InterruptedException when interrupted (the normal end: the run's duration ended)
     */
    public void watch(CcTree current, Target target, Listener l, Watch w) throws InterruptedException {
        new Daemon(this, settings, target, l, w).watch(current);
    }

    /** The most severe edge above {@code minScore}, or null. */
    String edge(Bottleneck b) {
        return b == null || b.scoreMicrosPerSec() < settings.minScore() ? null : b.edge();
    }

    /** Proposals for one edge (tests). */
    List<Candidate> candidates(CcTree current, Bottleneck.Edge b, List<Iteration.Trial> trials) {
        return proposals.of(current, b, trials);
    }

    private static String pct(double x) {
        return Math.round(100 * x) + "%";
    }
}
