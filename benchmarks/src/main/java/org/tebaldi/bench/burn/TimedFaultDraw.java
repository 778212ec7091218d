package org.tebaldi.bench.burn;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Draws the timed faults ({@link FaultKind#timed()}) of a burn scenario, each kind independently, in windows
 * starting at 2–40 ms (virtual): delay spikes (a third of the runs, 1–3 spikes of +1–20 ms for 1–20 ms on one
 * link, out of one node or everywhere), clock skew (a quarter: 1–2 nodes off by up to ±1 s, drifting up to ±5 %),
 * node pauses (a quarter: 1–2 of any node, services included, up to 40 ms — twice the transaction timeout), a
 * coordinator crash (a fifth of the runs with ≥ 2 coordinators, no reconfiguration — the reconfiguration server
 * waits for every coordinator — and no data-server restart; noticed after
 * 0.5–5 ms), link drops (a third: 1–2 links between any two nodes for 1–10 ms, but none touching a coordinator in
 * a run with a coordinator crash — the known two-phase-commit gap without a coordinator log, docs/cluster.md "Failures"),
 * loss and re-election of each singleton service the cluster runs (a quarter: 1–2 losses, the second starting after the first healed, noticed
 * after 0.5–5.5 ms, the new term up to 5 ms after that or before it), in a quarter of the runs that reconfigure a
 * drop of a link of the reconfiguration server during a swap, and, when asked, the crash and restart of
 * one data server from its log (noticed after 1 ms, restarted 5–25 ms after the crash).
 */
final class TimedFaultDraw {
    private TimedFaultDraw() {
    }

    /** The timed faults for {@code s} (its nodes, tree and durability), drawn from {@code r}. */
    static List<Fault> draw(Scenario s, Random r, boolean dsRestart) {
        List<String> servers = new ArrayList<>();
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < s.coordinators(); i++) {
            servers.add("tc" + i);
            nodes.add("client" + i);
        }
        for (int i = 0; i < s.dataServers(); i++) {
            servers.add("ds" + i);
        }
        List<String> services = new ArrayList<>();
        Targets.services(s, ScenarioFiles.tree(s.tree(), BurnWorkload.of(s.workload()), "draw"))
                .forEach(role -> services.add(role.cli()));
        nodes.addAll(servers);
        nodes.addAll(services);
        List<Fault> out = new ArrayList<>();
        if (r.nextInt(3) == 0) {
            for (int i = 1 + r.nextInt(3); i > 0; i--) {
                List<String> t = switch (r.nextInt(3)) {
                    case 0 -> List.of(pick(servers, r), pick(servers, r));
                    case 1 -> List.of(Targets.ANY, pick(servers, r));
                    default -> List.of(pick(servers, r));
                };
                out.add(new Fault(FaultKind.DELAY_SPIKE, at(r), 1_000 + r.nextInt(19_001), t, 1_000 + r.nextInt(19_001),
                        null));
            }
        }
        if (r.nextInt(4) == 0) {
            for (int i = 1 + r.nextInt(2); i > 0; i--) {
                out.add(new Fault(FaultKind.CLOCK_SKEW, at(r), 0, List.of(pick(nodes, r)), r.nextLong() % 1_000_000,
                        null, (r.nextDouble() - 0.5) * 100_000));
            }
        }
        if (r.nextInt(4) == 0) {
            for (int i = 1 + r.nextInt(2); i > 0; i--) {
                out.add(new Fault(FaultKind.NODE_PAUSE, at(r), 1_000 + r.nextInt(2 * (int) Lifetime.TXN_TIMEOUT_MICROS),
                        List.of(pick(nodes, r)), 0, null));
            }
        }
        String crashed = null;
        if (s.coordinators() >= 2 && !dsRestart && s.faults(FaultKind.RECONFIG).isEmpty() && r.nextInt(5) == 0) {
            crashed = "tc" + r.nextInt(s.coordinators());
            out.add(new Fault(FaultKind.COORDINATOR_CRASH, at(r), 500 + r.nextInt(4_501), List.of(crashed), 0, null));
        }
        if (r.nextInt(3) == 0) {
            List<String> ends = new ArrayList<>(nodes);
            if (crashed != null) {
                ends.removeIf(n -> n.startsWith("tc"));
            }
            for (int i = 1 + r.nextInt(2); i > 0 && ends.size() >= 2; i--) {
                String a = pick(ends, r);
                String b = pick(ends, r);
                if (!a.equals(b)) {
                    out.add(new Fault(FaultKind.LINK_DROP, at(r), 1_000 + r.nextInt(9_001), List.of(a, b), 0, null));
                }
            }
        }
        if (!services.isEmpty() && r.nextInt(4) == 0) {
            int n = 1 + r.nextInt(2);
            for (int i = 0; i < n; i++) {
                long detect = 500 + r.nextInt(5_001);
                out.add(new Fault(FaultKind.SERVICE_LOSS, 2_000 + i * 30_000L + r.nextInt(15_001), detect,
                        List.of(pick(services, r)), r.nextInt((int) detect + 5_000), null));
            }
        }
        configuratorLinkDrop(s, out);
        if (dsRestart) {
            out.add(new Fault(FaultKind.DS_RESTART, at(r), 1_000, List.of("ds" + r.nextInt(s.dataServers())),
                    5_000 + r.nextInt(20_001), null));
        }
        return out;
    }

    /**
     * In a quarter of the runs that reconfigure: a 1–10 ms drop of the link between the reconfiguration server and
     * one coordinator or data server, starting 0–5 ms after a reconfiguration began, so its requests or answers are
     * lost in flight. Drawn from its own random stream (seeded by the scenario's seed), which keeps every other
     * fault of a seed as it was drawn before this kind existed.
     */
    private static void configuratorLinkDrop(Scenario s, List<Fault> out) {
        List<Fault> reconfigs = s.faults(FaultKind.RECONFIG);
        Random r = new Random(s.seed() * 0x9E3779B97F4A7C15L + 11);
        if (reconfigs.isEmpty() || r.nextInt(4) != 0) {
            return;
        }
        Fault swap = reconfigs.get(r.nextInt(reconfigs.size()));
        String peer = r.nextBoolean() ? "tc" + r.nextInt(s.coordinators()) : "ds" + r.nextInt(s.dataServers());
        out.add(new Fault(FaultKind.LINK_DROP, swap.atMicros() + r.nextInt(5_001), 1_000 + r.nextInt(9_001),
                List.of("configurator", peer), 0, null));
    }

    private static long at(Random r) {
        return 2_000 + r.nextInt(38_001);
    }

    private static String pick(List<String> l, Random r) {
        return l.get(r.nextInt(l.size()));
    }
}
