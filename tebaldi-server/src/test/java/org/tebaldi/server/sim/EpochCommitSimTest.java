package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.history.listappend.ListAppendChecker;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.node.CommitProtocol;

/**
 * Epoch-based commit ({@code cluster.commit: epoch}; COCO, Lu et al. VLDB 2021, §3–4) under the failure points of an
 * epoch that the simulated runtime can inject: a coordinator crashing before its epoch's prepare and after it
 * answered the prepare (before the decision), the epoch service lost (while an epoch is open or preparing, with the
 * new term speaking before or after the failure notice), lost prepare / prepared / decision / done messages, a hung
 * coordinator that cannot answer the prepare in time, and the timestamp service lost while an epoch is prepared.
 * Each run: serializable history and the workload's invariants ({@link FaultRun}), no acknowledged append lost
 * (list-append final reads), no partial epoch ({@link EpochCheck}), and the injected fault hit an epoch (an epoch
 * aborted) where it must. {@code -Dtebaldi.seed=N} reruns one seed.
 */
class EpochCommitSimTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.faultSeeds", 3);
    private static final long END = 250_000;
    /** Epoch length of these runs, µs (virtual): short, so a run has ~50 epochs. */
    private static final long EPOCH = 5_000;

    static Stream<Arguments> trees() {
        Supplier<SimWorkload> bank = () -> new BankWorkload(6);
        Supplier<SimWorkload> lists = () -> new ListAppendWorkload(4);
        return Stream.of(
                Arguments.of("2pl (lists)", TreeSpec.leaf("2pl", "t_a", "t_b", "t_c", "t_ro"), lists),
                Arguments.of("ssi{2pl,none}", TreeSpec.inner("ssi", TreeSpec.leaf("2pl", "transfer"),
                        TreeSpec.leaf("none", "audit")), bank),
                Arguments.of("tso{rp,2pl,none} (lists)", TreeSpec.inner("tso", TreeSpec.inner("2pl",
                        TreeSpec.leaf("rp", "t_a", "t_b"), TreeSpec.leaf("2pl", "t_c")), TreeSpec.leaf("none", "t_ro")),
                        lists));
    }

    private static long[] seeds(String name) {
        String one = System.getProperty("tebaldi.seed");
        if (one != null) {
            return new long[] {Long.parseLong(one)};
        }
        long[] s = new long[SEEDS];
        for (int i = 0; i < SEEDS; i++) {
            s[i] = (name.hashCode() & 0xfff) * 100L + i + 7;
        }
        return s;
    }

    private interface Inject {
        void apply(FaultRun run, Random r, EpochServices s);
    }

    /** Runs every seed with faults from {@code inject}; {@code mustAbort}: the fault must have aborted an epoch. */
    private static void check(String name, TreeSpec spec, Supplier<SimWorkload> workload, boolean mustAbort,
                              Inject inject) {
        check(name, spec, workload, mustAbort, 6, inject);
    }

    /** As above with {@code clients} clients. */
    private static void check(String name, TreeSpec spec, Supplier<SimWorkload> workload, boolean mustAbort,
                              int clients, Inject inject) {
        CcTree tree = CcTree.build(spec, name);
        List<Runnable> runs = new ArrayList<>();
        for (long seed : seeds(name)) {
            runs.add(() -> {
                FaultRun run = new FaultRun(seed, workload.get(), tree, 2, 2,
                        c -> c.withCommit(CommitProtocol.EPOCH, EPOCH));
                EpochServices services = new EpochServices();
                services.capture(run);
                inject.apply(run, run.random, services);
                run.also(() -> {
                    services.capture(run);
                    EpochCheck.noPartialEpoch(run.cluster, services.decisions());
                    assertTrue(services.committed() > 0, "no epoch committed");
                    if (mustAbort) {
                        assertTrue(services.aborted() > 0, "the injected fault aborted no epoch");
                    }
                    finalReadsLoseNothing(run);
                });
                run.clients(clients, END).runAndCheck(END);
            });
        }
        List<String> failures = FaultRun.failures(runs);
        assertTrue(failures.isEmpty(), failures.size() + " seeds failed (rerun one with -Dtebaldi.seed=N):\n  "
                + String.join("\n  ", failures));
    }

    /** List-append runs: every key read after the run; no acknowledged append may be missing (a lost commit). */
    static void finalReadsLoseNothing(FaultRun run) {
        if (!(run.workload instanceof ListAppendWorkload w)) {
            return;
        }
        int live = 0;
        while (run.cluster.crashedCoordinators().contains(live)) {
            live++;
        }
        CompletableFuture<Void> f = w.txns().finalReads(run.cluster.client(live));
        assertTrue(run.sim.runUntil(f::isDone, run.sim.nowMicros() + 2_000_000), "final reads did not finish");
        f.join();
        org.tebaldi.core.history.listappend.Result r = ListAppendChecker.check(w.txns().recorder().history());
        assertTrue(r.valid(), "after final reads: " + r.summary(5));
    }

    /** An epoch boundary's virtual time near {@code at}: the service ticks every EPOCH µs from its start. */
    private static long boundaryAfter(long at) {
        return (at / EPOCH + 1) * EPOCH;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void coordinatorCrashesWhileItsEpochIsOpen(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        check(name, spec, w, true, (run, r, s) -> {
            long at = boundaryAfter(40_000 + r.nextInt(60_000)) + EPOCH / 2; // mid-epoch: before its prepare
            int tc = r.nextInt(2);
            run.sim.at(at, () -> run.cluster.crashCoordinator(tc, 500 + r.nextInt(1_000)));
            run.healedAt = at + 2_000;
        });
    }

    /**
     * The other coordinator's Prepared is delayed, so the epoch is still preparing when the first, which answered
     * already, crashes: the epoch must abort everywhere (its share died with it).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void coordinatorCrashesAfterItPreparedBeforeTheDecision(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        check(name, spec, w, true, (run, r, s) -> {
            long b = boundaryAfter(40_000 + r.nextInt(60_000));
            int dead = r.nextInt(2);
            NodeId slow = NodeId.tc(1 - dead);
            run.sim.faults().delaySpike(slow, new NodeId(Role.EPOCH, 0), b - 200, b + 3_000, 8_000);
            run.sim.at(b + 1_500, () -> run.cluster.crashCoordinator(dead, 300));
            run.healedAt = b + 12_000;
        });
    }

    /**
     * COCO's failure points (5)–(6) with a coordinator: every node voted and the service decided commit, but the
     * coordinator dies before the decision reaches it (the service's link to it is slowed after the prepare went
     * out, and its failure is detected only after the decision). Its members must still commit — the data servers
     * hold its share of the epoch and apply the decision — or the epoch would be partial.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void coordinatorCrashesAfterTheDecisionBeforeItArrives(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        long[] rescued = {0};
        check(name, spec, w, false, 16, (run, r, s) -> {
            int dead = r.nextInt(2);
            attemptCrashAfterDecision(run, dead, boundaryAfter(30_000 + r.nextInt(20_000)), 8, false);
            run.also(() -> rescued[0] += EpochCheck.noPartialEpoch(run.cluster, s.decisions()));
        });
        assertTrue(rescued[0] > 0, "no crashed coordinator's committed epoch had members: the scenario missed");
    }

    /**
     * As {@link #coordinatorCrashesAfterTheDecisionBeforeItArrives}, but the decision reaches the data servers only
     * after the coordinator's failure notice: its members of the undecided epoch must wait there for the decision
     * (not abort at the notice) and then commit.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void coordinatorCrashIsSeenBeforeTheServersHearTheDecision(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        long[] rescued = {0};
        check(name, spec, w, false, 16, (run, r, s) -> {
            int dead = r.nextInt(2);
            attemptCrashAfterDecision(run, dead, boundaryAfter(30_000 + r.nextInt(20_000)), 8, true);
            run.also(() -> rescued[0] += EpochCheck.noPartialEpoch(run.cluster, s.decisions()));
        });
        assertTrue(rescued[0] > 0, "no crashed coordinator's committed epoch had members: the scenario missed");
    }

    /**
     * Slows the service's link to coordinator {@code dead} just after the prepare of the epoch ending at {@code b}
     * went out, and crashes it once the service decided — if its batch of that epoch has members; else tries again
     * at a later boundary, at most {@code tries} times. {@code lateAtServers}: the links to the data servers are
     * slowed too, and the failure is detected before the decision reaches them.
     */
    private static void attemptCrashAfterDecision(FaultRun run, int dead, long b, int tries, boolean lateAtServers) {
        NodeId svc = new NodeId(Role.EPOCH, 0);
        run.sim.faults().delaySpike(svc, NodeId.tc(dead), b + 150, b + 3_000, 6_000);
        if (lateAtServers) {
            run.sim.faults().delaySpike(svc, NodeId.ds(0), b + 150, b + 3_000, 6_000);
            run.sim.faults().delaySpike(svc, NodeId.ds(1), b + 150, b + 3_000, 6_000);
        }
        run.healedAt = b + 12_000;
        run.sim.at(b + 1_500, () -> {
            Map.Entry<Long, long[]> last = new java.util.TreeMap<>(run.cluster.coordinators().get(dead).epochMembers())
                    .lastEntry();
            if (last != null && last.getValue().length > 0) {
                run.cluster.crashCoordinator(dead, lateAtServers ? 1_000 : 4_000);
            } else if (tries > 1) {
                attemptCrashAfterDecision(run, dead, boundaryAfter(b + 10_000), tries - 1, lateAtServers);
            }
        });
    }

    /**
     * Two failures at once: the service decided commit, the decision reached the live coordinator (which released
     * its members) but neither the data servers nor the other coordinator (their links drop it from the moment the
     * last vote reaches the service), and then that coordinator and the service instance are both lost. The new
     * term must send the old decision from its commit record ({@code DecisionLog}) before it speaks otherwise; else
     * the data servers end the old term's undecided epoch as aborted and the dead coordinator's members abort while
     * the live one's committed (a partial epoch).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void aCoordinatorAndTheServiceFailAfterTheDecision(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        long[] rescued = {0};
        check(name, spec, w, false, 16, (run, r, s) -> {
            int dead = r.nextInt(2);
            NodeId svc = new NodeId(Role.EPOCH, 0);
            long earliest = 30_000 + r.nextInt(20_000);
            Map<Long, java.util.Set<NodeId>> votes = new java.util.HashMap<>();
            run.sim.watchDeliveries((to, from, msg) -> {
                if (!(msg instanceof org.tebaldi.server.epoch.EpochMessages.Prepared p) || !to.equals(svc)
                        || !p.ok() || run.sim.nowMicros() < earliest) {
                    return;
                }
                java.util.Set<NodeId> v = votes.computeIfAbsent(p.epoch(), e -> new java.util.HashSet<>());
                long[] mine = run.cluster.coordinators().get(dead).epochMembers().get(p.epoch());
                if (v.add(from) && v.size() == 4 && mine != null && mine.length > 0) {
                    run.sim.watchDeliveries(null); // the service decides commit in this handler
                    long now = run.sim.nowMicros();
                    for (NodeId n : List.of(NodeId.tc(dead), NodeId.ds(0), NodeId.ds(1))) {
                        run.sim.faults().dropLink(svc, n, now, now + 3_000);
                    }
                    run.sim.at(now + 1_000, () -> {
                        s.capture(run);
                        run.cluster.crashCoordinator(dead, 800);
                        run.cluster.failService(Role.EPOCH, 1_000, 2_500);
                        run.sim.at(now + 3_501, () -> s.capture(run));
                    });
                    run.healedAt = now + 12_000;
                }
            });
            run.also(() -> {
                s.capture(run);
                rescued[0] += EpochCheck.noPartialEpoch(run.cluster, s.decisions());
            });
        });
        assertTrue(rescued[0] > 0, "no crashed coordinator's committed epoch had members: the scenario missed");
    }

    /** The epoch service is lost at random points of an epoch, three times; the new term may speak first. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void epochServiceIsLostAndReElected(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        check(name, spec, w, false, (run, r, s) -> {
            for (int i = 0; i < 3; i++) {
                long at = 20_000 + i * 50_000 + r.nextInt(30_000);
                long detect = 300 + r.nextInt(3_000);
                long takeOver = r.nextInt((int) detect + 3_000);
                run.sim.at(at, () -> {
                    s.capture(run);
                    run.cluster.failService(Role.EPOCH, detect, takeOver);
                });
                run.sim.at(at + takeOver + 1, () -> s.capture(run));
                run.healedAt = at + Math.max(detect, takeOver);
            }
        });
    }

    /**
     * COCO's failure points (5)–(8): the epoch service decided and is lost while its decision to tc1 is still on
     * the way (that link is slowed after the prepare went out), so tc1 hears of the failure, and of the new term,
     * only after or around the old decision: it must apply it (not abort its prepared batch on the failure notice).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void epochServiceLostAfterItDecided(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        check(name, spec, w, false, (run, r, s) -> {
            NodeId svc = new NodeId(Role.EPOCH, 0);
            for (int i = 0; i < 2; i++) {
                long b = boundaryAfter(30_000 + i * 60_000 + r.nextInt(20_000));
                run.sim.faults().delaySpike(svc, NodeId.tc(1), b + 300, b + 3_000, 5_000);
                long detect = 200 + r.nextInt(1_000);
                long takeOver = r.nextInt(2_000);
                run.sim.at(b + 1_000, () -> {
                    s.capture(run);
                    run.cluster.failService(Role.EPOCH, detect, takeOver);
                });
                run.sim.at(b + 1_000 + takeOver + 1, () -> s.capture(run));
                run.healedAt = b + 10_000;
            }
        });
    }

    /**
     * The new term speaks before the failure notice of the old one arrives (a new leader elected before every
     * node's ZooKeeper watch fired): a coordinator holds the new term's prepared epoch (the other's vote is slowed)
     * when it hears of the failure; the notice must not abort that epoch.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void theNewTermSpeaksBeforeTheFailureNotice(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        check(name, spec, w, false, (run, r, s) -> {
            NodeId svc = new NodeId(Role.EPOCH, 0);
            long at = boundaryAfter(30_000 + r.nextInt(40_000)) + 2_000;
            long takeOver = 100 + r.nextInt(200);
            long detect = takeOver + EPOCH + 2_500; // after the new term's first prepare went out
            run.sim.at(at, () -> {
                s.capture(run);
                run.cluster.failService(Role.EPOCH, detect, takeOver);
            });
            run.sim.at(at + takeOver + 1, () -> s.capture(run));
            long firstPrepare = at + takeOver + EPOCH;
            run.sim.faults().delaySpike(NodeId.tc(1), svc, firstPrepare - 100, firstPrepare + 2_000, 6_000);
            run.healedAt = at + detect + 10_000;
        });
    }

    /**
     * Lost Prepare / Prepared / Decision / Done: drops of the service's links to coordinators and data servers, each
     * starting a few µs to ~1 ms after an epoch boundary, so the epoch's messages in flight then are lost.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void epochMessagesAreLost(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        check(name, spec, w, false, (run, r, s) -> {
            NodeId svc = new NodeId(Role.EPOCH, 0);
            for (int i = 0; i < 12; i++) {
                NodeId n = r.nextBoolean() ? NodeId.tc(r.nextInt(2)) : NodeId.ds(r.nextInt(2));
                long from = boundaryAfter(20_000 + i * 10_000) + 1 + r.nextInt(1_000);
                long until = from + 200 + r.nextInt(EPOCH_INT);
                run.sim.faults().dropLink(svc, n, from, until);
                run.healedAt = run.healedAt == Long.MAX_VALUE ? until : Math.max(run.healedAt, until);
            }
            run.also(() -> assertTrue(run.sim.faults().lostMessages() > 0, "no epoch message was lost"));
        });
    }

    private static final int EPOCH_INT = (int) EPOCH;

    /** A coordinator hangs past the prepare timeout (100 ms here): the epoch it does not answer aborts. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void aHungCoordinatorCannotPrepareInTime(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        check(name, spec, w, true, (run, r, s) -> {
            long at = boundaryAfter(20_000 + r.nextInt(20_000)) - 1_000;
            NodeId tc = NodeId.tc(r.nextInt(2));
            run.sim.faults().pause(tc, at, at + 120_000);
            run.healedAt = at + 120_000;
        });
    }

    /**
     * The timestamp service and batch manager are lost while an epoch is prepared (tc1's Prepared is delayed, so
     * tc0's batch waits for the decision when the failure notice arrives): coordinators abort their live
     * transactions, but not a prepared batch — aborting it at one coordinator alone would split the epoch.
     */
    @Test
    void timestampServiceLostWhileAnEpochIsPrepared() {
        check("ssi{2pl,none} ts-loss", TreeSpec.inner("ssi", TreeSpec.leaf("2pl", "transfer"),
                TreeSpec.leaf("none", "audit")), () -> new BankWorkload(6), false, (run, r, s) -> {
                    for (int i = 0; i < 3; i++) {
                        Role role = i == 1 ? Role.BATCH : Role.TS;
                        long b = boundaryAfter(20_000 + i * 50_000 + r.nextInt(20_000));
                        run.sim.faults().delaySpike(NodeId.tc(1), new NodeId(Role.EPOCH, 0), b - 200, b + 3_000, 8_000);
                        run.sim.at(b + 1_000, () -> run.cluster.failService(role, 500, 1_500));
                        run.healedAt = b + 10_000;
                    }
                });
    }

    /**
     * Random trees of depth up to 3 over every mechanism ({@link RandomTrees}), each seed with one fault drawn: a
     * coordinator crash, the epoch service lost, drops of the service's links, a long pause of a coordinator or
     * data server, or drops between coordinators and data servers (lost 2PC messages inside an epoch).
     */
    @Test
    void randomTreesUnderRandomFaults() {
        List<String> failures = new ArrayList<>();
        for (int i = 1; i <= Integer.getInteger("tebaldi.epochFaultTrees", 12); i++) {
            Supplier<SimWorkload> w = i % 2 == 0 ? () -> new BankWorkload(6) : () -> new ListAppendWorkload(4);
            TreeSpec spec = new RandomTrees(w.get().database(), 9_100 + i, 3).next();
            int kind = i % 5;
            try {
                check("random#" + i + " fault " + kind, spec, w, false, (run, r, s) -> {
                    NodeId svc = new NodeId(Role.EPOCH, 0);
                    long at = 30_000 + r.nextInt(80_000);
                    switch (kind) {
                        case 0 -> run.sim.at(at, () -> run.cluster.crashCoordinator(r.nextInt(2), 500 + r.nextInt(2_000)));
                        case 1 -> run.sim.at(at, () -> {
                            s.capture(run);
                            run.cluster.failService(Role.EPOCH, 300 + r.nextInt(3_000), r.nextInt(4_000));
                        });
                        case 2 -> run.sim.faults().dropLink(svc, r.nextBoolean() ? NodeId.tc(r.nextInt(2)) : NodeId.ds(r.nextInt(2)),
                                at, at + 3_000);
                        case 3 -> run.sim.faults().pause(r.nextBoolean() ? NodeId.tc(r.nextInt(2)) : NodeId.ds(r.nextInt(2)), at,
                                at + 40_000);
                        default -> run.sim.faults().dropLink(NodeId.tc(r.nextInt(2)), NodeId.ds(r.nextInt(2)), at, at + 5_000);
                    }
                    run.sim.at(at + 5_000, () -> s.capture(run));
                    run.healedAt = at + 45_000;
                });
            } catch (AssertionError e) {
                failures.add("tree #" + i + " " + spec + ": " + e.getMessage());
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " trees failed:\n  " + String.join("\n  ", failures));
    }

    /** Without faults every mechanism's leaf commits through epochs, and the runs check. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void noFaults(String name, TreeSpec spec, Supplier<SimWorkload> w) {
        check(name, spec, w, false, (run, r, s) -> run.healedAt = 0);
    }
}
