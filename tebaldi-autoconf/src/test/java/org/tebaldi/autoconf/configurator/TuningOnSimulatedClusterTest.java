package org.tebaldi.autoconf.configurator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.add;
import static org.tebaldi.core.proc.Exprs.col;
import static org.tebaldi.core.proc.Exprs.field;
import static org.tebaldi.core.proc.Exprs.in;
import static org.tebaldi.core.proc.Exprs.lit;
import static org.tebaldi.core.proc.Exprs.mul;
import static org.tebaldi.core.proc.Exprs.set;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.tebaldi.autoconf.profiler.ProfilerMonitor;
import org.tebaldi.autoconf.profiler.WindowReport;
import org.tebaldi.autoconf.reconfig.ReconfigServer;
import org.tebaldi.autoconf.reconfig.SwapResult;
import org.tebaldi.autoconf.tuning.LiveTarget;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;

/**
 * The configurator's decisions hold up under a noisy machine: it tunes a deterministic simulated cluster (profiler
 * monitor, reconfiguration server, clients in closed loops) through a {@link Configurator.Target} whose throughput
 * samples carry injected noise, over many seeds. It adopts a tree that is truly better in nearly every seed, and
 * adopts nothing when no candidate is better, although the noise is strong enough that comparing means would.
 *
 * <p>Workload: {@code bump} increments the hot row {@code t[0]}, then reads its own row twice, each read keyed by
 * the previous result (so batching cannot merge them, and under 2PL the hot row's lock is held over two more round
 * trips and the commit); {@code note} increments a row of its own. Six clients run bump, two run note. The start
 * tree is the initial configuration, {@code 2pl[bump,note]}; the profiler names bump–bump (about 4.7 s blocked per
 * s).
 *
 * <p>True throughputs, without injected noise ({@link #truth}: seed 1, 1 s of virtual time, profiling on; the test
 * measures them and checks them against the bounds below): {@code 2pl[bump,note]} 2,746 txn/s; bump in a leaf of
 * its own under 2PL ({@code 2pl{2pl[bump],2pl[note]}}) the very same 2,746 txn/s (the simulation charges no CPU for
 * a nested node); under RP ({@code 2pl{rp[bump],2pl[note]}}) 1.083 times that, since RP's end of execution is a
 * step transition that releases the single step before the commit round (dissertation §4.4.2); TSO
 * for bump ({@code 2pl{tso[bump],2pl[note]}}, plain or per {@code k}) 4,363 txn/s, a ratio of 1.59 (a promise lets
 * the next bump read the hot row as soon as it is written).
 *
 * <p>Noise model, per seed from its own {@link Random} (everything derives from the seed, so {@code seed=N} in a
 * failure reproduces): a machine-speed factor {@code exp(s)}, {@code s} an AR(1) process stepped once per sample
 * period of virtual time (coefficient 0.9, stationary σ 0.1: it drifts on the scale of a window, across swaps); a
 * per-sample lognormal factor (σ 0.3, mean 1); GC pauses (outside a pause one starts in 2% of the samples, lasts
 * 1–3 samples and cuts each to 20–60%). A sample is 10 ms of virtual time (about 27 commits on the start tree).
 * Settings as the TPC-C experiment's, in samples: windows of 20 samples, a settle test over 5, 3 rounds (8 at
 * most), 90% intervals, {@code minGain} 3%; at most 2 iterations and 3 candidates, the most severe edge only.
 *
 * <p>Two scenarios on {@value #SEEDS} seeds each, with the same workload, start tree and settings except the
 * mechanisms the strategies may use (observed counts in brackets):
 * <ul>
 *   <li>better ({@code [rp, tso]}): the candidates for bump–bump are RP for bump (+8%) and TSO for bump, plain
 *       and per {@code k} (+59%). Every adopted tree must be truly better (true ratio at least
 *       {@value #TRULY_BETTER}), and the session must end on a truly better tree in at least 90% of the seeds [30
 *       of 30];</li>
 *   <li>not better ({@code [2pl]}): the candidate runs exactly as the start tree does (checked: within ±3%).
 *       At most {@value #MAX_FALSE_ADOPTIONS} seed may adopt [0]: a candidate is adopted only if its screening
 *       interval and then its confirmation's on fresh windows lie above the margin, each a one-sided test at 5%
 *       against +3% (the extra rounds a promising or undecided interval gets raise that: 5 of 300 seeds in
 *       {@link ConfiguratorNoiseTest}'s model); the bound of 1 in 30 leaves room for the drift and pauses, which
 *       bend the t-test's assumptions (in earlier runs with two candidates screening passed one in 3 seeds, each confirmation did not). The
 *       naive rule ({@link NaiveRule}: a candidate's first window against the incumbent's mean) must have adopted
 *       in at least a fifth of the seeds [7 of 30], so the test fails if the intervals were replaced by
 *       means.</li>
 * </ul>
 */
class TuningOnSimulatedClusterTest {
    /** A sample period, µs of virtual time. */
    private static final long SAMPLE_MICROS = 10_000;
    /** Virtual time of one analysis (three monitor windows), µs. */
    private static final long ANALYSIS_MICROS = 150_000;
    private static final long MONITOR_WINDOW_MICROS = 50_000;
    private static final long FLUSH_MICROS = 10_000;
    /** Virtual time before the configurator starts (clients ramp up), µs. */
    private static final long WARMUP_MICROS = 100_000;
    /** A swap that takes longer than this (virtual µs) fails the seed. */
    private static final long SWAP_LIMIT_MICROS = 20_000_000;
    /** Virtual time of a noise-free measurement, µs. */
    private static final long TRUTH_MICROS = 1_000_000;
    private static final int HOT_CLIENTS = 6;
    private static final int COLD_CLIENTS = 2;
    /** First key of the clients' own rows (the hot row is 0). */
    private static final long OWN = 100;
    private static final int SEEDS = 30;
    /** Per seed of the last scenario run: whether the naive rule would have adopted a candidate. */
    private final java.util.Map<Long, Boolean> fooled = new java.util.HashMap<>();
    private static final double MIN_GAIN = 0.03;
    private static final double TRULY_BETTER = 1.2;
    private static final int MAX_FALSE_ADOPTIONS = 1;

    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);
    private final TreeContext ctx;
    private final Map<String, Double> truths = new LinkedHashMap<>();

    TuningOnSimulatedClusterTest() {
        // the reads' keys are own + 0 * (the previous row's v): each read waits for the previous result
        db.procedure(Procedure.define("bump", cat).params("k", "own").body(b -> b
                .update("t", "h", List.of(set("v", add(col("v"), lit(1L)))), in("k"))
                .read("t", "a", add(in("own"), mul(field("h", "v"), lit(0L))))
                .read("t", "b", add(in("own"), mul(field("a", "v"), lit(0L))))).build());
        db.procedure(Procedure.define("note", cat).params("k").body(b -> b
                .update("t", null, List.of(set("v", add(col("v"), lit(1L)))), in("k"))).build());
        ctx = TreeContext.of(db);
    }

    /** minScore 0.1 s blocked per s: bump–bump under TSO (about 2.5 ms per s) is no bottleneck. */
    private static Configurator.Settings settings(List<String> mechanisms) {
        return new Configurator.Settings(mechanisms, 2, MIN_GAIN, 100_000, 3, 1, 3, 8, 0.9, 0.98, 20, 5, 0.05, 15);
    }

    /** A simulated cluster running the workload in closed loops, with a profiler monitor and a reconfig server. */
    private final class SimCluster {
        final SimulatedRuntime sim;
        final ProfilerMonitor monitor = new ProfilerMonitor(MONITOR_WINDOW_MICROS);
        final ReconfigServer server;
        long commits;
        String failure;

        SimCluster(long seed, CcTree tree) {
            sim = new SimulatedRuntime(seed, SimulatedRuntime.Model.jittery());
            ClusterConfig cfg = new ClusterConfig(db, tree, 2, 2, null, false).withProfiling(FLUSH_MICROS);
            Cluster c = new Cluster(sim, cfg, 64).withAllServices();
            c.addNode(new NodeId(Role.MONITOR, 0), monitor);
            NodeId serverId = new NodeId(Role.CONFIGURATOR, 0);
            server = new ReconfigServer(serverId, sim, 2, 2, tree, Mechanisms::get);
            c.addNode(serverId, server);
            for (long k = 0; k < OWN + HOT_CLIENTS + COLD_CLIENTS; k++) {
                c.load(Key.of(t, k), t.row(0L));
            }
            c.start();
            Random rnd = new Random(seed);
            for (int i = 0; i < HOT_CLIENTS + COLD_CLIENTS; i++) {
                TxnClient client = c.client(i);
                Random r = new Random(rnd.nextLong());
                boolean hot = i < HOT_CLIENTS;
                long own = OWN + i;
                sim.at(r.nextInt(100), () -> loop(client, r, hot, own, -1));
            }
            run(WARMUP_MICROS);
        }

        /** One transaction after another; an aborted attempt is retried with its first attempt's priority. */
        private void loop(TxnClient client, Random r, boolean hot, long own, long priority) {
            long p = priority < 0 ? sim.nowMicros() : priority;
            CompletableFuture<?> f = hot ? client.call("bump", Inputs.of(0L, own), p)
                    : client.call("note", Inputs.of(own), p);
            f.whenComplete((v, e) -> {
                Throwable x = e != null && e.getCause() != null ? e.getCause() : e;
                if (x != null && !(x instanceof TxnAbortedException a && a.retryable())) {
                    failure = "unexpected failure: " + x;
                    return;
                }
                if (x == null) {
                    commits++;
                }
                sim.at(sim.nowMicros() + r.nextInt(50), () -> loop(client, r, hot, own, x == null ? -1 : p));
            });
        }

        void run(long micros) {
            sim.runUntil(sim.nowMicros() + micros);
            if (failure != null) {
                throw new IllegalStateException("seed=" + sim.seed() + ": " + failure);
            }
        }
    }

    /**
     * The injected measurement noise of one seed: machine speed (AR(1) on the log scale, stepped per virtual sample
     * period), per-sample lognormal noise and GC pauses (see the class comment).
     */
    private static final class Noise {
        private static final double SPEED_PHI = 0.9;
        private static final double SPEED_SIGMA = 0.1;
        private static final double SAMPLE_SIGMA = 0.3;
        private static final double PAUSE_PROBABILITY = 0.02;
        private final Random r;
        private double speed;
        private long period;
        private int pause;

        Noise(long seed) {
            r = new Random(seed * 1_000_003L + 17);
            speed = SPEED_SIGMA * r.nextGaussian();
        }

        /** The factor for the sample that ends in sample period {@code period} (counted from time 0). */
        double factor(long period) {
            for (; this.period < period; this.period++) {
                speed = SPEED_PHI * speed + SPEED_SIGMA * Math.sqrt(1 - SPEED_PHI * SPEED_PHI) * r.nextGaussian();
            }
            double f = Math.exp(speed + SAMPLE_SIGMA * r.nextGaussian() - SAMPLE_SIGMA * SAMPLE_SIGMA / 2);
            if (pause == 0 && r.nextDouble() < PAUSE_PROBABILITY) {
                pause = 1 + r.nextInt(3);
            }
            if (pause > 0) {
                pause--;
                f *= 0.2 + 0.4 * r.nextDouble();
            }
            return f;
        }
    }

    /**
     * The configurator's view of a simulated cluster, called on the test thread; each call advances virtual time.
     * Analysis sums the monitor's reports over an analysis period as {@link LiveTarget} does; a sample is the
     * commits of one sample period in txn/s of virtual time times the noise; a swap is an online update (falling
     * back to partial restart where it cannot apply) run until it completes.
     */
    private final class SimTarget implements Configurator.Target {
        final SimCluster c;
        final Noise noise;

        SimTarget(SimCluster c, Noise noise) {
            this.c = c;
            this.noise = noise;
        }

        @Override
        public Bottleneck analyze() {
            int from = c.monitor.reports().size(); // far below the monitor's 10,000 kept reports
            c.run(ANALYSIS_MICROS);
            List<WindowReport> after = c.monitor.reports();
            return LiveTarget.summarize(after.subList(from, after.size()), db);
        }

        @Override
        public double[] sample(int count) {
            double[] out = new double[count];
            for (int i = 0; i < count; i++) {
                long c0 = c.commits;
                c.run(SAMPLE_MICROS);
                out[i] = (c.commits - c0) * 1e6 / SAMPLE_MICROS * noise.factor(c.sim.nowMicros() / SAMPLE_MICROS);
            }
            return out;
        }

        @Override
        public String swap(CcTree tree) {
            CompletableFuture<SwapResult> f = c.server.onlineUpdate(tree, 0);
            if (!c.sim.runUntil(f::isDone, c.sim.nowMicros() + SWAP_LIMIT_MICROS)) {
                throw new IllegalStateException("seed=" + c.sim.seed() + ": swap to " + tree.describe()
                        + " did not complete");
            }
            if (c.failure != null) {
                throw new IllegalStateException("seed=" + c.sim.seed() + ": " + c.failure);
            }
            return f.join().describe();
        }
    }

    /** One seed's tuning session from the initial tree. */
    private List<Iteration> tune(long seed, List<String> mechanisms) throws InterruptedException {
        CcTree start = InitialTree.of(ctx);
        SimCluster c = new SimCluster(seed, start);
        NaiveRule naive = new NaiveRule(MIN_GAIN);
        List<Iteration> its = new Configurator(ctx, settings(mechanisms)).run(start,
                new SimTarget(c, new Noise(seed)), naive);
        fooled.put(seed, naive.fooled());
        String end = its.get(its.size() - 1).adopted().canonical();
        assertEquals(end, CcTree.build(c.server.running().activeSpec(), "running").canonical(),
                "seed=" + seed + ": the cluster ends on the adopted tree");
        return its;
    }

    /** The tree's throughput without injected noise (seed 1, txn/s of virtual time), measured once per tree. */
    private double truth(CcTree tree) {
        return truths.computeIfAbsent(tree.canonical(), k -> {
            SimCluster c = new SimCluster(1, tree);
            long c0 = c.commits;
            c.run(TRUTH_MICROS);
            return (c.commits - c0) * 1e6 / TRUTH_MICROS;
        });
    }

    private double ratio(CcTree tree, CcTree start) {
        return truth(tree) / truth(start);
    }

    private static String describe(long seed, List<Iteration> its) {
        StringBuilder s = new StringBuilder("seed=" + seed + ":");
        for (Iteration it : its) {
            s.append(" [").append(it.number()).append(": ")
                    .append(it.bottleneck() == null ? "no blocking" : it.bottleneck().edge());
            for (Iteration.Trial t : it.trials()) {
                s.append("; ").append(t.candidate().tree().describe()).append(' ').append(t.estimate() == null
                        ? "rejected" : t.verdict() + " " + t.estimate().describe());
            }
            s.append(it.confirmation() == null ? "" : "; confirmed " + it.confirmation().describe())
                    .append(" -> ").append(it.adopted().describe()).append(']');
        }
        return s.toString();
    }

    /** Seeds that adopted a tree, passed a candidate in screening, and would have adopted by the naive rule. */
    private static final class Tally {
        int adopted;
        int screened;
        int naive;

        void add(List<Iteration> its, boolean fooled) {
            List<Iteration.Trial> ran = its.stream().flatMap(it -> it.trials().stream())
                    .filter(t -> t.estimate() != null).toList();
            adopted += its.stream().anyMatch(Iteration::improved) ? 1 : 0;
            screened += ran.stream().anyMatch(t -> t.verdict().equals(Iteration.BETTER)) ? 1 : 0;
            naive += fooled ? 1 : 0;
        }

        @Override
        public String toString() {
            return "of " + SEEDS + " seeds, adopted a tree in " + adopted + ", a candidate passed screening in "
                    + screened + ", the naive rule (one window against the incumbent's mean) adopts in " + naive;
        }
    }

    @Test
    void adoptsATrulyBetterTreeInNearlyEverySeed() throws InterruptedException {
        CcTree start = InitialTree.of(ctx);
        Tally tally = new Tally();
        List<String> wrong = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            List<Iteration> its = tune(seed, List.of("rp", "tso"));
            tally.add(its, fooled.get(seed));
            for (Iteration it : its) {
                if (it.improved() && ratio(it.adopted(), it.start()) < TRULY_BETTER) {
                    wrong.add(describe(seed, its) + String.format(Locale.ROOT, " (true ratio %.3f)",
                            ratio(it.adopted(), it.start())));
                }
            }
            if (ratio(its.get(its.size() - 1).adopted(), start) < TRULY_BETTER) {
                missed.add(describe(seed, its));
            }
        }
        int better = SEEDS - missed.size();
        String counts = tally + ", ended on a truly better tree in " + better + " (true throughputs " + truths + ")";
        assertTrue(wrong.isEmpty(), () -> counts + "; adopted a tree not truly better:\n" + String.join("\n", wrong));
        assertTrue(better >= 0.9 * SEEDS, () -> counts + "; expected at least 90%, missed:\n"
                + String.join("\n", missed));
        System.out.println("better scenario: " + counts);
    }

    @Test
    void adoptsNothingWhenNoCandidateIsBetter() throws InterruptedException {
        CcTree start = InitialTree.of(ctx);
        Tally tally = new Tally();
        List<String> adoptions = new ArrayList<>();
        List<String> notEqual = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            List<Iteration> its = tune(seed, List.of("2pl"));
            tally.add(its, fooled.get(seed));
            for (Iteration it : its) {
                for (Iteration.Trial t : it.trials()) {
                    double r = t.estimate() == null ? 1 : ratio(t.candidate().tree(), start);
                    if (Math.abs(r - 1) > 0.03) {
                        notEqual.add(String.format(Locale.ROOT, "%s (true ratio %.3f)", t.candidate().tree()
                                .describe(), r));
                    }
                }
            }
            if (its.stream().anyMatch(Iteration::improved)) {
                adoptions.add(describe(seed, its));
            }
        }
        String counts = tally.toString();
        assertTrue(notEqual.isEmpty(), () -> "the scenario needs candidates within ±3% of the start tree: "
                + notEqual);
        assertTrue(tally.adopted <= MAX_FALSE_ADOPTIONS, () -> counts + "; adoptions:\n"
                + String.join("\n", adoptions));
        assertTrue(tally.naive >= SEEDS / 5, () -> counts + ": the noise is too weak to tell intervals from means");
        System.out.println("not-better scenario: " + counts);
    }
}
