package org.tebaldi.autoconf.configurator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.add;
import static org.tebaldi.core.proc.Exprs.col;
import static org.tebaldi.core.proc.Exprs.field;
import static org.tebaldi.core.proc.Exprs.in;
import static org.tebaldi.core.proc.Exprs.lit;
import static org.tebaldi.core.proc.Exprs.mul;
import static org.tebaldi.core.proc.Exprs.set;

import java.util.ArrayList;
import java.util.List;
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
 * The tuning daemon on a deterministic simulated cluster (virtual time; docs/autoconf.md, "The daemon"): it
 * re-tunes after a workload shift and only then, not for an engine slowdown.
 *
 * <p>Workload (as {@link TuningOnSimulatedClusterTest}'s): {@code bump} increments the hot row and reads its own row
 * twice, each read keyed by the previous result (under 2PL the hot row's lock is held over two round trips);
 * {@code note} increments a row of its own. Eight clients in closed loops each draw the next type from a mix, bump
 * with probability {@code bumpShare}. TSO for bump runs about 1.6 times as fast as 2PL when bumps dominate.
 *
 * <ul>
 *   <li>{@link #anEngineSlowdownIsReportedAndNotRetuned}: a stationary mix (bump 0.75) on {@code 2pl[bump,note]};
 *       after the daemon's reference, every node of the cluster pauses for 50 of every 100 virtual ms (simulated
 *       collector pauses, {@link SimulatedRuntime#pause}) until the end. Throughput falls by about half; the
 *       daemon must report an engine drift and never re-enter tuning.</li>
 *   <li>{@link #aWorkloadShiftIsRetunedToABetterTree}: the mix starts at note only (nothing blocks: the tuning pass
 *       stops at once, the daemon watches {@code 2pl[bump,note]}) and shifts to bump 0.75 at virtual second 3. The
 *       daemon must re-enter tuning once, after the shift, because the mix changed, and adopt a tree that runs the
 *       shifted workload at least 1.2 times as fast as the start tree (measured without the daemon, 1 virtual s).</li>
 * </ul>
 * Breaking the detector fails them: treating a drift as a workload change (the daemon before this test) re-enters
 * in the first; a mix test that never fires re-enters in the second on the bottleneck instead, which its reason's
 * check rejects.
 */
class DaemonOnSimulatedClusterTest {
    private static final long SAMPLE_MICROS = 10_000;
    private static final long ANALYSIS_MICROS = 150_000;
    private static final long MONITOR_WINDOW_MICROS = 50_000;
    private static final long FLUSH_MICROS = 10_000;
    private static final long WARMUP_MICROS = 100_000;
    private static final long SWAP_LIMIT_MICROS = 20_000_000;
    private static final int CLIENTS = 8;
    private static final long OWN = 100;
    private static final long SHIFT_MICROS = 3_000_000;
    private static final double SHIFTED_BUMP_SHARE = 0.75;

    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);
    private final TreeContext ctx;

    DaemonOnSimulatedClusterTest() {
        db.procedure(Procedure.define("bump", cat).params("k", "own").body(b -> b
                .update("t", "h", List.of(set("v", add(col("v"), lit(1L)))), in("k"))
                .read("t", "a", add(in("own"), mul(field("h", "v"), lit(0L))))
                .read("t", "b", add(in("own"), mul(field("a", "v"), lit(0L))))).build());
        db.procedure(Procedure.define("note", cat).params("k").body(b -> b
                .update("t", null, List.of(set("v", add(col("v"), lit(1L)))), in("k"))).build());
        ctx = TreeContext.of(db);
    }

    private static Configurator.Settings settings() {
        return new Configurator.Settings(List.of("rp", "tso"), 2, 0.03, 100_000, 3, 1, 3, 8, 0.9, 0.98, 20, 5, 0.05,
                15);
    }

    /** A simulated cluster whose clients draw bump with probability {@link #bumpShare}. */
    private final class SimCluster {
        final SimulatedRuntime sim;
        final ProfilerMonitor monitor = new ProfilerMonitor(MONITOR_WINDOW_MICROS);
        final ReconfigServer server;
        final long[] commits = new long[2];
        volatile double bumpShare;
        String failure;

        SimCluster(long seed, CcTree tree, double bumpShare) {
            this.bumpShare = bumpShare;
            sim = new SimulatedRuntime(seed, SimulatedRuntime.Model.jittery());
            ClusterConfig cfg = new ClusterConfig(db, tree, 2, 2, null, false).withProfiling(FLUSH_MICROS);
            Cluster c = new Cluster(sim, cfg, 64).withAllServices();
            c.addNode(new NodeId(Role.MONITOR, 0), monitor);
            NodeId serverId = new NodeId(Role.CONFIGURATOR, 0);
            server = new ReconfigServer(serverId, sim, 2, 2, tree, Mechanisms::get);
            c.addNode(serverId, server);
            for (long k = 0; k < OWN + CLIENTS; k++) {
                c.load(Key.of(t, k), t.row(0L));
            }
            c.start();
            Random rnd = new Random(seed);
            for (int i = 0; i < CLIENTS; i++) {
                TxnClient client = c.client(i);
                Random r = new Random(rnd.nextLong());
                long own = OWN + i;
                sim.at(r.nextInt(100), () -> loop(client, r, own, r.nextDouble() < this.bumpShare, -1));
            }
            run(WARMUP_MICROS);
        }

        /** One transaction after another; a retried attempt keeps its type and first attempt's priority. */
        private void loop(TxnClient client, Random r, long own, boolean bump, long priority) {
            long p = priority < 0 ? sim.nowMicros() : priority;
            CompletableFuture<?> f = bump ? client.call("bump", Inputs.of(0L, own), p)
                    : client.call("note", Inputs.of(own), p);
            f.whenComplete((v, e) -> {
                Throwable x = e != null && e.getCause() != null ? e.getCause() : e;
                if (x != null && !(x instanceof TxnAbortedException a && a.retryable())) {
                    failure = "unexpected failure: " + x;
                    return;
                }
                if (x == null) {
                    commits[db.type(bump ? "bump" : "note").id()]++;
                }
                boolean next = x == null ? r.nextDouble() < bumpShare : bump;
                sim.at(sim.nowMicros() + r.nextInt(50), () -> loop(client, r, own, next, x == null ? -1 : p));
            });
        }

        long allCommits() {
            return commits[0] + commits[1];
        }

        void run(long micros) {
            sim.runUntil(sim.nowMicros() + micros);
            if (failure != null) {
                throw new IllegalStateException("seed=" + sim.seed() + ": " + failure);
            }
        }

        /** Every node pauses for {@code pauseMicros} of every {@code periodMicros} in [from, until). */
        void pauses(long fromMicros, long untilMicros, long periodMicros, long pauseMicros) {
            for (long at = fromMicros; at < untilMicros; at += periodMicros) {
                for (NodeId n : sim.nodeIds()) {
                    sim.faults().pause(n, at, at + pauseMicros);
                }
            }
        }
    }

    /**
     * The configurator's view of the simulated cluster, as in {@link TuningOnSimulatedClusterTest} but without
     * injected noise, with commits per type, and with an end: past {@code endMicros} every call is interrupted (the
     * run's duration ended).
     */
    private final class SimTarget implements Configurator.Target {
        final SimCluster c;
        final long endMicros;

        SimTarget(SimCluster c, long endMicros) {
            this.c = c;
            this.endMicros = endMicros;
        }

        private void checkEnd() throws InterruptedException {
            if (c.sim.nowMicros() >= endMicros) {
                throw new InterruptedException("the run ended");
            }
        }

        @Override
        public Bottleneck analyze() throws InterruptedException {
            checkEnd();
            int from = c.monitor.reports().size();
            c.run(ANALYSIS_MICROS);
            List<WindowReport> after = c.monitor.reports();
            return LiveTarget.summarize(after.subList(from, after.size()), db);
        }

        @Override
        public double[] sample(int count) throws InterruptedException {
            checkEnd();
            double[] out = new double[count];
            for (int i = 0; i < count; i++) {
                long c0 = c.allCommits();
                c.run(SAMPLE_MICROS);
                out[i] = (c.allCommits() - c0) * 1e6 / SAMPLE_MICROS;
            }
            return out;
        }

        @Override
        public String swap(CcTree tree) throws InterruptedException {
            checkEnd();
            CompletableFuture<SwapResult> f = c.server.onlineUpdate(tree, 0);
            if (!c.sim.runUntil(f::isDone, c.sim.nowMicros() + SWAP_LIMIT_MICROS)) {
                throw new IllegalStateException("seed=" + c.sim.seed() + ": swap to " + tree.describe()
                        + " did not complete");
            }
            return f.join().describe();
        }

        @Override
        public long[] typeCommits() {
            return c.commits.clone();
        }
    }

    /** What the daemon said, with the virtual time of each re-entry. */
    private static final class Heard implements Configurator.Listener {
        final SimCluster c;
        final List<String> reentries = new ArrayList<>();
        final List<Long> reentryMicros = new ArrayList<>();
        final List<String> drifts = new ArrayList<>();
        final List<Iteration> iterations = new ArrayList<>();
        final List<Double> references = new ArrayList<>();

        Heard(SimCluster c) {
            this.c = c;
        }

        @Override
        public void reentering(String why) {
            reentries.add(why);
            reentryMicros.add(c.sim.nowMicros());
        }

        @Override
        public void engineDrift(String why) {
            drifts.add(why);
        }

        @Override
        public void decided(Iteration it, String swap) {
            iterations.add(it);
        }

        @Override
        public void watching(CcTree tree, double referenceTxnPerSec, String edge) {
            references.add(referenceTxnPerSec);
        }
    }

    /** Throughput of {@code tree} on the shifted mix, no daemon, 1 virtual s after warm-up (txn/s). */
    private double truth(CcTree tree) {
        SimCluster c = new SimCluster(1, tree, SHIFTED_BUMP_SHARE);
        long c0 = c.allCommits();
        c.run(1_000_000);
        return (c.allCommits() - c0) / 1.0;
    }

    @Test
    void anEngineSlowdownIsReportedAndNotRetuned() {
        CcTree start = InitialTree.of(ctx);
        SimCluster c = new SimCluster(7, start, SHIFTED_BUMP_SHARE);
        long slowFrom = 2_000_000;
        long end = 20_000_000;
        c.pauses(slowFrom, end, 100_000, 50_000);
        Heard heard = new Heard(c);
        assertThrows(InterruptedException.class, () -> new Configurator(ctx, settings()).watch(start,
                new SimTarget(c, end), heard, new Configurator.Watch(0.15, 3)));
        String said = "re-entries " + heard.reentries + ", engine drifts " + heard.drifts + ", references "
                + heard.references;
        assertTrue(heard.reentries.isEmpty(), said);
        assertEquals(1, heard.references.size(), said);
        assertTrue(!heard.drifts.isEmpty() && heard.drifts.get(0).contains("engine drift")
                && heard.drifts.get(0).contains("while the workload held"), said);
        assertEquals(start.canonical(), CcTree.build(c.server.running().activeSpec(), "running").canonical());
        System.out.println("engine slowdown: " + said);
    }

    @Test
    void aWorkloadShiftIsRetunedToABetterTree() {
        CcTree start = InitialTree.of(ctx);
        SimCluster c = new SimCluster(5, start, 0);
        c.sim.at(SHIFT_MICROS, () -> c.bumpShare = SHIFTED_BUMP_SHARE);
        long end = 40_000_000;
        Heard heard = new Heard(c);
        Configurator tuner = new Configurator(ctx, settings());
        SimTarget target = new SimTarget(c, end);
        assertThrows(InterruptedException.class, () -> {
            List<Iteration> first = tuner.run(start, target, heard);
            assertEquals(start.canonical(), first.get(first.size() - 1).adopted().canonical(),
                    "nothing blocks before the shift");
            tuner.watch(start, target, heard, new Configurator.Watch(0.15, 3));
        });
        String said = "re-entries " + heard.reentries + " at " + heard.reentryMicros + " µs, engine drifts "
                + heard.drifts;
        assertEquals(1, heard.reentries.size(), said);
        assertTrue(heard.reentries.get(0).startsWith("workload mix changed"), said);
        assertTrue(heard.reentryMicros.get(0) > SHIFT_MICROS, said);
        CcTree running = CcTree.build(c.server.running().activeSpec(), "running");
        assertNotEquals(start.canonical(), running.canonical(), said);
        double ratio = truth(running) / truth(start);
        assertTrue(ratio >= 1.2, "adopted " + running.describe() + " runs the shifted workload at " + ratio
                + " times the start tree; " + said);
        System.out.println("workload shift: adopted " + running.describe() + String.format(java.util.Locale.ROOT,
                " (%.2f times the start tree on the shifted mix); ", ratio) + said);
    }
}
