package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeValidator;

/**
 * The automatic configuration algorithm (dissertation Fig 5.1, §5.2–§5.5): starting from a tree (the initial
 * configuration of Fig 5.2, {@link InitialTree}), each iteration finds the most severe bottleneck conflict edge
 * (analysis stage), proposes candidates by the three strategies of §5.4.1 iterating over the given mechanisms
 * ({@link Strategies}), drops those the filters reject ({@link Filters}) or that do not validate, applies CC-specific
 * preprocessing ({@link Preprocessing}: runtime pipelining's analysis, partition-by-instance variants), swaps the
 * running cluster to each candidate and measures its throughput (testing stage), and keeps the best if it beats the
 * current tree by {@code minGain}. After each candidate the current tree is swapped back and measured again, and
 * candidates are compared with the mean of the current tree's measurements: each swap stays local to one change
 * (so the online update applies wherever the tree allows it), and slow drifts of the machine's speed do not
 * decide. Stops when no bottleneck is found, nothing improves, or after
 * {@code maxIterations}. Runs on its own thread and blocks in {@link Target}; it is not CC code.
 *
 * <p>One refinement of Fig 5.1: when no candidate for the most severe edge improves, the iteration goes on to the
 * next most severe edges (at most {@code edgesPerIteration} in all, each above {@code minScore}) before giving up.
 * The dissertation's loop stops there; but a bottleneck that the current tree already handles as well as it can
 * (e.g. runtime pipelining's step waits between new_order and payment, which our profiler logs as blocking) would
 * then hide the next one (payment against itself, §5.6.1's second iteration). With {@code edgesPerIteration = 1}
 * the loop is exactly Fig 5.1.
 */
public final class Configurator {
    /** What the configurator drives: the running cluster, or a model of it in tests. */
    public interface Target {
        /** Profiles the running tree for one analysis period; null if nothing blocked. */
        Bottleneck analyze() throws InterruptedException;

        /** Measures the running tree's throughput over one test window, txn/s. */
        double measure() throws InterruptedException;

        /** Swaps the cluster to {@code tree} (blocks until it runs); returns a description of the swap. */
        String swap(CcTree tree) throws InterruptedException;
    }

    /** Receives progress, on the configurator's thread. */
    public interface Listener {
        /** The iteration's analysis and baseline are known. */
        default void analyzed(int iteration, Bottleneck b, double baselineTxnPerSec) {
        }

        /** The iteration turns to an edge ({@code rank} 1 for the bottleneck, 2 for the next, ...). */
        default void exploring(int iteration, int rank, Bottleneck.Edge edge) {
        }

        /** A candidate was proposed and passed the filters; about to be swapped in. */
        default void testing(int iteration, int index, int count, Candidate c) {
        }

        /**
         * After a candidate ran, the current tree was swapped back and measured again ({@code txnPerSec}); the
         * baseline is now the mean of its measurements in this iteration.
         */
        default void remeasured(int iteration, String swap, double txnPerSec, double baseline) {
        }

        /** A candidate ran (or was rejected, with {@code t.rejected()} saying why). */
        default void tried(int iteration, Iteration.Trial t, String swap) {
        }

        /** The iteration ended. */
        default void decided(Iteration it, String swap) {
        }

        /** The algorithm ended, with the reason. */
        default void finished(String why) {
        }
    }

    /**
     * Settings.
     *
     * @param mechanisms    mechanisms the strategies try for new nodes (the "good under contention" filter),
     *                      e.g. {@code [rp, tso]}
     * @param maxIterations iterations at most
     * @param minGain       relative improvement over the current tree needed to adopt a candidate, e.g. 0.03
     * @param minScore      bottleneck score (µs blocked per s) below which the analysis counts as "no bottleneck"
     * @param maxCandidates candidates tested per edge at most (in proposal order)
     * @param edgesPerIteration conflict edges explored per iteration at most, most severe first (1: Fig 5.1)
     */
    public record Settings(List<String> mechanisms, int maxIterations, double minGain, double minScore,
                           int maxCandidates, int edgesPerIteration) {
    }

    private final TreeContext ctx;
    private final Function<String, Mechanism> mechanisms;
    private final Settings settings;

    public Configurator(TreeContext ctx, Settings settings) {
        this.ctx = ctx;
        this.settings = settings;
        this.mechanisms = name -> {
            Mechanism m = ctx.mechanisms().get(name);
            if (m == null) {
                throw new IllegalArgumentException("unknown mechanism '" + name + "'");
            }
            return m;
        };
    }

    /**
     * Runs the algorithm from {@code start}, which must be the tree the target runs.
     *
     * @return every iteration, in order; the last one's {@code adopted} tree is the result
     * @throws InterruptedException if interrupted (the target keeps the tree it runs)
     */
    public List<Iteration> run(CcTree start, Target target, Listener l) throws InterruptedException {
        List<Iteration> done = new ArrayList<>();
        CcTree current = start;
        for (int i = 1; i <= settings.maxIterations(); i++) {
            Bottleneck b = target.analyze();
            double base = target.measure();
            l.analyzed(i, b, base);
            if (b == null || b.scoreMicrosPerSec() < settings.minScore()) {
                Iteration it = new Iteration(i, current, base, b, List.of(), current, base, false);
                done.add(it);
                l.decided(it, null);
                l.finished(b == null ? "no blocking found" : "no bottleneck above " + settings.minScore()
                        + " µs/s (most severe: " + b.edge() + ", " + Math.round(b.scoreMicrosPerSec()) + " µs/s)");
                return done;
            }
            Iteration it = iterate(i, current, base, b, target, l);
            done.add(it);
            if (!it.improved()) {
                l.finished("no candidate improved on " + it.start().describe() + " for " + b.edge());
                return done;
            }
            current = it.adopted();
        }
        l.finished("reached " + settings.maxIterations() + " iterations");
        return done;
    }

    private Iteration iterate(int i, CcTree current, double base, Bottleneck b, Target target, Listener l)
            throws InterruptedException {
        List<Iteration.Trial> trials = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        seen.add(current.canonical());
        CcTree best = current;
        double bestTps = base;
        List<Double> baselines = new ArrayList<>(List.of(base));
        int rank = 0;
        for (Bottleneck.Edge e : b.edges()) {
            if (rank == settings.edgesPerIteration() || e.scoreMicrosPerSec() < settings.minScore()) {
                break;
            }
            rank++;
            l.exploring(i, rank, e);
            List<Iteration.Trial> rejected = new ArrayList<>();
            List<Candidate> runnable = new ArrayList<>();
            for (Candidate c : candidates(current, e, rejected)) {
                if (seen.add(c.tree().canonical())) {
                    runnable.add(c);
                }
            }
            List<Candidate> tested = runnable.subList(0, Math.min(runnable.size(), settings.maxCandidates()));
            for (Candidate c : runnable.subList(tested.size(), runnable.size())) {
                rejected.add(new Iteration.Trial(e.name(), c, Double.NaN, "over maxCandidates ("
                        + settings.maxCandidates() + ")"));
            }
            for (Iteration.Trial t : rejected) {
                trials.add(t);
                l.tried(i, t, null);
            }
            for (int k = 0; k < tested.size(); k++) {
                Candidate c = tested.get(k);
                l.testing(i, k + 1, tested.size(), c);
                String swap = target.swap(c.tree());
                double tps = target.measure();
                Iteration.Trial t = new Iteration.Trial(e.name(), c, tps, null);
                trials.add(t);
                l.tried(i, t, swap);
                if (tps > bestTps) {
                    best = c.tree();
                    bestTps = tps;
                }
                String back = target.swap(current);
                baselines.add(target.measure());
                base = mean(baselines);
                l.remeasured(i, back, baselines.get(baselines.size() - 1), base);
            }
            if (improves(best, current, bestTps, base)) {
                break;
            }
        }
        boolean improved = improves(best, current, bestTps, base);
        CcTree keep = improved ? best : current;
        String swap = keep == current ? null : target.swap(keep);
        Iteration it = new Iteration(i, current, base, b, trials, keep, improved ? bestTps : base, improved);
        l.decided(it, swap);
        return it;
    }

    private static double mean(List<Double> xs) {
        double s = 0;
        for (double x : xs) {
            s += x;
        }
        return s / xs.size();
    }

    private boolean improves(CcTree best, CcTree current, double bestTps, double base) {
        return best != current && bestTps > base * (1 + settings.minGain());
    }

    /**
     * Proposals that pass the filters, preprocess and validate (as validated trees, ready to run); rejected ones go
     * to {@code trials} with the reason.
     */
    List<Candidate> candidates(CcTree current, Bottleneck.Edge b, List<Iteration.Trial> trials) {
        Filters filters = new Filters(ctx);
        Preprocessing pre = new Preprocessing(ctx.database(), mechanisms);
        List<Candidate> out = new ArrayList<>();
        for (Candidate c : Strategies.propose(current, b.a(), b.b(), settings.mechanisms())) {
            String why = filters.reject(c.tree());
            String[] reason = {null};
            List<Candidate> variants = why == null ? pre.apply(c, reason) : List.of();
            if (why == null && variants.isEmpty()) {
                why = "preprocessing: " + reason[0];
            }
            if (why != null) {
                trials.add(new Iteration.Trial(b.name(), c, Double.NaN, why));
                continue;
            }
            for (Candidate v : variants) {
                try {
                    CcTree t = TreeValidator.validate(v.tree().activeSpec(), "<candidate>", ctx).tree();
                    if (out.stream().noneMatch(o -> o.tree().canonical().equals(t.canonical()))) {
                        out.add(new Candidate(t, v.strategy()));
                    }
                } catch (ConfigException e) {
                    trials.add(new Iteration.Trial(b.name(), v, Double.NaN, "invalid: " + e.getMessage()));
                }
            }
        }
        return out;
    }
}
