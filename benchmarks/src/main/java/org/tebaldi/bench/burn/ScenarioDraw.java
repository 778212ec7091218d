package org.tebaldi.bench.burn;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.sim.RandomTrees;

/**
 * Draws a burn {@link Scenario} from a seed, deterministically: a workload ({@link BurnWorkload}, uniformly), a
 * random tree of depth ≤ 3 over every registered mechanism the composability rules cover ({@link RandomTrees};
 * for TPC-C none that puts {@code stock_level} under runtime pipelining),
 * 1–3 coordinators and 1–3 data servers, 4–8 clients of 10–25 transactions each, durability in a quarter of the
 * runs, and faults: network jitter (delays up to 0.3–5 ms) in half of the runs, node pauses (up to 0.2–3 ms every
 * 5 ms) in a third; without durability 0–2 reconfigurations to other random trees at 2–40 ms (half by online
 * update, half of them with a 2 ms force-abort timeout). With durability a whole-cluster crash at 2–30 ms in half of
 * the runs (keeping every unsynced write in one crash of three), a single data-server restart in a quarter (DST
 * trees: durable in 5 runs of 8, a restart in half of those); then the
 * timed faults of {@link TimedFaultDraw} (those that would not end before a cluster crash dropped).
 */
public final class ScenarioDraw {
    private ScenarioDraw() {
    }

    /**
     * The next random tree the workload can run: TPC-C's interactive {@code stock_level} reads order lines and
     * stock in turns, which runtime pipelining cannot order (it aborts such a transaction for good), so it never
     * lies below an {@code rp} node.
     */
    private static TreeSpec next(RandomTrees trees, BurnWorkload w) {
        TreeSpec t = trees.next();
        while (w == BurnWorkload.TPCC && rpOver(t, "stock_level", false)) {
            t = trees.next();
        }
        return t;
    }

    private static boolean rpOver(TreeSpec s, String type, boolean underRp) {
        boolean rp = underRp || "rp".equals(s.cc);
        if (rp && s.txns.contains(type)) {
            return true;
        }
        return s.children.stream().anyMatch(c -> rpOver(c, type, rp));
    }

    /** The scenario of {@code seed}. */
    public static Scenario draw(long seed) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L + 0x2545F491L);
        BurnWorkload w = BurnWorkload.values()[r.nextInt(BurnWorkload.values().length)];
        RandomTrees trees = new RandomTrees(w.create().database(), r.nextLong(), 3);
        String tree = TreeLoader.toYaml(next(trees, w));
        int tcs = 1 + r.nextInt(3);
        int dss = 1 + r.nextInt(3);
        int clients = 4 + r.nextInt(5);
        int txns = 10 + r.nextInt(16);
        // DST trees (ssi roots with timestamps: dst, in few draws) are durable in 5 runs of 8 instead of 1 of 4, and
        // then restart a data server in half of them: their crash recovery (docs/mechanisms.md "DST") gets draws
        boolean dst = tree.contains("timestamps: dst");
        boolean durable = r.nextInt(4) == 0 || dst && r.nextBoolean();
        List<Fault> faults = new ArrayList<>();
        if (r.nextBoolean()) {
            faults.add(new Fault(FaultKind.NET_JITTER, 0, 0, List.of(), 300 + r.nextInt(4_701), null));
        }
        if (r.nextInt(3) == 0) {
            faults.add(new Fault(FaultKind.NODE_PAUSES, 0, 0, List.of(), 200 + r.nextInt(2_801), null));
        }
        boolean dsRestart = false;
        if (durable) {
            int d = r.nextInt(4);
            if (d < 2) {
                faults.add(new Fault(FaultKind.CLUSTER_CRASH, 2_000 + r.nextInt(28_001), 0, List.of(),
                        r.nextInt(3) == 0 ? 1 : 0, null));
            }
            dsRestart = d == 2 || dst && d == 3;
        } else {
            int n = r.nextInt(3);
            for (int i = 0; i < n; i++) {
                faults.add(new Fault(FaultKind.RECONFIG, 2_000 + r.nextInt(38_001), r.nextBoolean() ? 2_000 : 0,
                        List.of(), r.nextInt(2), TreeLoader.toYaml(next(trees, w))));
            }
        }
        Scenario base = new Scenario(seed, w.label(), tree, tcs, dss, clients, txns, durable, faults);
        List<Fault> timed = TimedFaultDraw.draw(base, r, dsRestart);
        long crashAt = base.faults(FaultKind.CLUSTER_CRASH).stream().mapToLong(Fault::atMicros).min()
                .orElse(Long.MAX_VALUE);
        timed.removeIf(f -> f.endMicros() >= crashAt);
        faults.addAll(timed);
        return base.withFaults(faults);
    }
}
