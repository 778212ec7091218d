package org.tebaldi.bench.burn;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.history.listappend.ListAppendChecker;
import org.tebaldi.core.history.listappend.Result;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.durability.MemoryLogStore;
import org.tebaldi.server.sim.ClosedLoopClients;
import org.tebaldi.server.sim.ListAppendWorkload;
import org.tebaldi.server.sim.SimWorkload;

/**
 * Runs one burn {@link Scenario} on the simulated runtime (virtual time, deterministic: the same scenario gives
 * the same result) with its faults, and checks, in this order: no workload assertion or node error while running;
 * liveness (every client finishes within 60 virtual s of the last fault — or, when the tree is merely slow under
 * the faults, makes progress: the cluster commits in every 5-virtual-s window after the last fault and every
 * unfinished client commits in the last 30 virtual s, after which the clients stop; the cluster commits within 5
 * virtual s of the start and of each heal — recovery after a crash, the end of a reconfiguration — unless the
 * clients are done;
 * recovery completes within 5 virtual s; nothing is left live at a coordinator or data server 50 virtual ms after
 * the end); durability (every transaction whose durable notification arrived before a crash is present after the
 * recovery; every commit after it becomes durable); serializability of the recorded history
 * ({@link SerializabilityChecker} on {@link History#merge}, the transactions a crash lost counted as aborted, as
 * in {@code DurabilitySimTest}); for list-append the black-box {@link ListAppendChecker} on what the clients
 * observed, with final reads of every key; the workload's final invariant; with {@link #streamed}, the streamed
 * history check beside the run. Timed faults ({@link FaultKind#timed()})
 * are applied by {@link FaultInjector#scheduleTimed} with the transaction timeouts on ({@link Lifetime}), each
 * followed by the "commits again within 5 virtual s of the heal" check; after the clients finish, every transaction
 * must end and recovery finish within 1.5 virtual s. Failures are results, never exceptions.
 */
public final class BurnRun {
    /** Clients must finish within this much virtual time after the last fault's start, µs. */
    static final long FINISH_LIMIT_MICROS = 60_000_000L;
    /** The cluster must commit within this much virtual time after each heal, µs. */
    static final long RECOMMIT_BOUND_MICROS = 5_000_000L;
    /** Recovery after a crash must finish within this much virtual time, µs. */
    static final long RECOVERY_LIMIT_MICROS = 5_000_000L;
    /** Window in which a slow run must commit something, after the last fault, µs. */
    static final long PROGRESS_WINDOW_MICROS = 5_000_000L;
    /** A client not finished by the limit must have committed within this much virtual time before it, µs. */
    static final long CLIENT_PROGRESS_MICROS = 30_000_000L;
    /**
     * Virtual time a slow run goes on after its clients stopped, so the attempts in flight end, µs: a TPC-C
     * stock_level of some hundred reads one after the other takes seconds under 5 ms of jitter.
     */
    static final long STOP_SETTLE_MICROS = 10_000_000L;
    /** Virtual time the run goes on after the clients finished, so commit and abort messages land, µs. */
    static final long SETTLE_MICROS = 50_000L;
    /**
     * How long after the clients finished every transaction must have ended and recovery finished, µs: beyond the
     * 1 s lock timeout of runtime pipelining, which a transaction stuck on a lost message may wait for.
     */
    static final long QUIET_LIMIT_MICROS = 1_500_000L;
    /** How long the final reads of the list-append check may take, µs. */
    static final long FINAL_READS_LIMIT_MICROS = 5_000_000L;

    private final Scenario s;
    private final Function<String, Mechanism> mechanisms;
    private ClosedLoopClients loops;
    private final CommitLog commits = new CommitLog();
    private long virtualMicros;
    private int historyTxns;
    private String livenessProblem;
    /** On a pass of a slow run: how far the clients got. */
    private String note = "";
    private boolean streamed;

    /** A run with the mechanisms on the class path. */
    public BurnRun(Scenario s) {
        this(s, Mechanisms::get);
    }

    /** @param mechanisms how the trees' mechanism names resolve (tests plug in broken ones) */
    public BurnRun(Scenario s, Function<String, Mechanism> mechanisms) {
        this.s = s;
        this.mechanisms = mechanisms;
    }

    /**
     * Also checks the history streamed while the run goes on, where the scenario allows ({@link StreamedHistory}):
     * {@link Verdict#STREAMED_CHECK} if it holds a transaction without an outcome once the cluster is quiet or
     * disagrees with the batch check. Returns this run.
     */
    public BurnRun streamed() {
        this.streamed = true;
        return this;
    }

    /** A failed check. */
    private static final class Failure extends RuntimeException {
        final Verdict verdict;

        Failure(Verdict verdict, String message) {
            super(message, null, false, false);
            this.verdict = verdict;
        }
    }

    /**
     * Runs and checks the scenario (which {@link ScenarioFiles#check} accepts).
     *
     * @return the verdict and counts; a failed check or an exception of node or workload code is a failed verdict
     */
    public BurnResult run() {
        long t0 = System.nanoTime();
        Verdict v = Verdict.PASS;
        String msg = "";
        try {
            execute();
        } catch (Failure f) {
            v = f.verdict;
            msg = f.getMessage();
        } catch (AssertionError e) {
            v = Verdict.INVARIANT;
            msg = String.valueOf(e.getMessage());
        } catch (RuntimeException e) {
            v = Verdict.ERROR;
            msg = Verdict.describe(e);
        }
        if (v == Verdict.PASS) {
            msg = note;
        }
        return new BurnResult(s, v, msg, loops == null ? 0 : loops.committed(), loops == null ? 0 : loops.aborted(),
                historyTxns, virtualMicros, (System.nanoTime() - t0) / 1_000_000);
    }

    private void execute() {
        BurnWorkload w = BurnWorkload.of(s.workload());
        SimWorkload workload = w.create();
        CcTree tree = ScenarioFiles.tree(s.tree(), w, "scenario tree");
        SimulatedRuntime.Model model = FaultInjector.model(s);
        List<Fault> reconfigs = s.faults(FaultKind.RECONFIG);
        List<CcTree> targets = new ArrayList<>();
        for (int i = 0; i < reconfigs.size(); i++) {
            targets.add(ScenarioFiles.tree(reconfigs.get(i).tree(), w, "reconfiguration " + i));
        }
        List<Fault> crashes = s.faults(FaultKind.CLUSTER_CRASH);
        MemoryLogStore[] stores = s.durable() ? java.util.stream.Stream.generate(MemoryLogStore::new)
                .limit(s.dataServers()).toArray(MemoryLogStore[]::new) : null;
        loops = new ClosedLoopClients(workload, s.clients(), s.txnsPerClient(), s.seed())
                .toleratingFailedAttempts();
        Lifetime e = new Lifetime(s, 0, model, tree, workload, stores, !reconfigs.isEmpty(), mechanisms,
                streamed && StreamedHistory.applies(s));
        int[] swaps = {0};
        Lifetime first = e;
        FaultInjector.schedule(e, reconfigs, targets, at -> {
            swaps[0]++;
            watchRecommit(first, at, "reconfiguration " + swaps[0] + " ended");
            if (System.getProperty("tebaldi.burn.debug") != null) {
                System.err.println("reconfiguration " + swaps[0] + " ended at " + at + " µs");
            }
        });
        FaultInjector.scheduleTimed(e, s, stores, new Random(s.seed() * 131 + 3));
        for (Fault f : s.faults()) {
            if (f.kind().timed()) {
                watchRecommit(first, f.endMicros(), f.kind().label() + " " + f.targets() + " healed");
            }
        }
        startClients(e, 0, "the start");
        long lastFault = s.lastHealMicros();
        Set<Long> durableBefore = Set.of();
        Set<Long> committedBefore = Set.of();
        if (!crashes.isEmpty()) {
            Fault crash = crashes.get(0);
            e.sim.runUntil(crash.atMicros());
            failIfClientFailed();
            virtualMicros += e.sim.nowMicros();
            Random r = new Random(s.seed() * 31 + 7);
            for (MemoryLogStore st : stores) {
                st.crash(r, crash.parameter() == 1);
            }
            workload.crashed();
            durableBefore = new HashSet<>(commits.durable());
            committedBefore = new HashSet<>(commits.committed());
            commits.newEpoch();
            e = new Lifetime(s, 1, model, tree, workload, stores, false, mechanisms, false);
            Lifetime recovering = e;
            if (!e.sim.runUntil(() -> !recovering.recovering(), RECOVERY_LIMIT_MICROS)) {
                throw new Failure(Verdict.LIVENESS, "recovery after the crash at " + crash.atMicros()
                        + " µs did not finish within " + RECOVERY_LIMIT_MICROS / 1000 + " virtual ms");
            }
            startClients(e, e.sim.nowMicros(), "recovery");
            lastFault = e.sim.nowMicros();
        }
        Lifetime last = e;
        long limit = lastFault + FINISH_LIMIT_MICROS;
        watchProgress(e, lastFault, limit);
        int[] leftBefore = new int[s.clients()];
        e.sim.at(limit - CLIENT_PROGRESS_MICROS, () -> {
            for (int c = 0; c < leftBefore.length; c++) {
                leftBefore[c] = loops.left(c);
            }
        });
        boolean done = e.sim.runUntil(() -> loops.failure() != null || livenessProblem != null
                || loops.done() && swaps[0] == reconfigs.size(), limit);
        virtualMicros += e.sim.nowMicros();
        failIfClientFailed();
        if (livenessProblem != null) {
            throw new Failure(Verdict.LIVENESS, livenessProblem);
        }
        long settle = SETTLE_MICROS;
        if (!done) {
            String why = swaps[0] < reconfigs.size() ? "" : stalledClient(leftBefore);
            if (why != null) {
                throw new Failure(Verdict.LIVENESS, loops.finished() + " of " + s.clients() + " clients finished, "
                        + swaps[0] + " of " + reconfigs.size() + " reconfigurations ended within " + limit / 1000
                        + " virtual ms" + why + "; live: " + e.live());
            }
            // slow but live: every window committed and no client starved; stop and check what ran
            note = "slow: " + loops.finished() + " of " + s.clients() + " clients finished within "
                    + FINISH_LIMIT_MICROS / 1_000_000 + " virtual s, all committing in the last "
                    + CLIENT_PROGRESS_MICROS / 1_000_000 + " s";
            loops.stop();
            settle = STOP_SETTLE_MICROS;
        }
        long end = e.sim.nowMicros();
        // a slow run stopped its clients with attempts in flight: they get the longer settle to end
        e.sim.runUntil(() -> last.quiet() && !last.recovering(), end + Math.max(QUIET_LIMIT_MICROS, settle));
        e.sim.runUntil(e.sim.nowMicros() + SETTLE_MICROS);
        virtualMicros += e.sim.nowMicros() - end;
        if (e.recovering()) {
            throw new Failure(Verdict.LIVENESS, "recovery still running " + (e.sim.nowMicros() - end) / 1000
                    + " virtual ms after the clients finished");
        }
        String live = e.live();
        if (!live.isEmpty()) {
            throw new Failure(Verdict.LIVENESS, "transactions left live after the run:" + live);
        }
        String held = e.streamed == null ? null : e.streamed.heldOnceQuiet();
        if (held != null) {
            throw new Failure(Verdict.STREAMED_CHECK, held);
        }
        List<HistoryLog> logs = e.streamed != null ? e.streamed.finish() : new ArrayList<>(e.cluster.historyLogs());
        if (s.durable()) {
            checkDurability(last, logs, durableBefore, committedBefore);
        }
        History h = History.merge(logs);
        historyTxns = h.txnCount();
        CheckResult c = SerializabilityChecker.check(h);
        if (!c.serializable()) {
            throw new Failure(Verdict.SERIALIZABILITY, c.summary(3));
        }
        String differs = e.streamed == null ? null : e.streamed.disagreement(c);
        if (differs != null) {
            throw new Failure(Verdict.STREAMED_CHECK, differs);
        }
        if (!(workload instanceof ListAppendWorkload la)) {
            workload.checkFinal(e.cluster);
        } else if (crashes.isEmpty() && s.faults(FaultKind.DS_RESTART).isEmpty()) {
            checkLists(last, la); // not after crashes: see checkLists
        }
    }

    /**
     * The black-box check of a list-append run (its workload's whole final check): final reads of every key
     * (through a client of a live coordinator, once the cluster is quiet, with the coordinators' caches dropped so
     * that they read the latest committed state), then {@link ListAppendChecker} on what
     * the clients observed. Not in runs with a cluster crash or a data-server restart: a commit is acknowledged
     * before it is durable, so a crash may take back a transaction whose appends other acknowledged transactions
     * (read-only ones too) observed — allowed by the durability contract, but a history of client observations
     * cannot tell those apart; the engine-order check (lost commits counted as aborted) and the durability check
     * cover these runs.
     */
    private void checkLists(Lifetime e, ListAppendWorkload la) {
        int client = 0;
        while (e.cluster.crashedCoordinators().contains(client)) {
            client++;
        }
        // the final reads stand for "after every commit": a coordinator's cache of reads may serve an older
        // version, serializable (the read-only transaction orders before the later writers) but not the latest
        e.cluster.dropCoordinatorCaches();
        var reads = la.txns().finalReads(e.cluster.client(client));
        long start = e.sim.nowMicros();
        e.sim.runUntil(reads::isDone, start + FINAL_READS_LIMIT_MICROS);
        virtualMicros += e.sim.nowMicros() - start;
        if (!reads.isDone()) {
            throw new Failure(Verdict.LIVENESS, "the final reads did not finish within "
                    + FINAL_READS_LIMIT_MICROS / 1000 + " virtual ms");
        }
        if (reads.isCompletedExceptionally()) {
            throw new Failure(Verdict.ERROR, "the final reads failed: "
                    + Verdict.describe(reads.handle((v, x) -> x).join()));
        }
        Result r = ListAppendChecker.check(la.txns().recorder().history());
        if (!r.valid()) {
            throw new Failure(Verdict.LIST_APPEND, r.summary(3));
        }
    }

    private void checkDurability(Lifetime e, List<HistoryLog> logs, Set<Long> durableBefore, Set<Long> committedBefore) {
        Set<Long> after = new HashSet<>(commits.committed());
        after.removeAll(committedBefore);
        if (!s.faults(FaultKind.DS_RESTART).isEmpty()) {
            after.removeAll(commits.lost());
        }
        // a crashed coordinator sends no durable notification for the commits it acknowledged
        after.removeIf(t -> e.cluster.crashedCoordinators().contains(TxnIds.coordinator(t)));
        long until = e.sim.nowMicros() + 1_000_000;
        e.sim.runUntil(() -> commits.durable().containsAll(after), until);
        if (!commits.durable().containsAll(after)) {
            after.removeAll(commits.durable());
            throw new Failure(Verdict.DURABILITY, after.size() + " committed transactions never became durable, e.g. "
                    + after.iterator().next());
        }
        Set<Long> present = new HashSet<>();
        for (HistoryLog l : logs) {
            l.outcomes().forEach(o -> {
                if (o.committed()) {
                    present.add(o.txn());
                }
            });
        }
        for (long t : commits.durable()) {
            if (!present.contains(t)) {
                throw new Failure(Verdict.DURABILITY, "durable transaction " + t + " is missing after the recovery"
                        + (durableBefore.contains(t) ? " from the crash" : ""));
            }
        }
        HistoryLog lost = new HistoryLog();
        for (long t : committedBefore) {
            if (!present.contains(t)) {
                lost.outcome(t, false, null);
            }
        }
        logs.add(lost);
    }

    private void startClients(Lifetime e, long healMicros, String what) {
        loops.start(e.sim, i -> commits.wrap(e.cluster.client(i), e.sim::nowMicros));
        watchRecommit(e, healMicros, what);
    }

    /**
     * Fails the run if, after the last fault, some window of {@link #PROGRESS_WINDOW_MICROS} up to {@code limit}
     * passes without a commit while the clients are not done.
     */
    private void watchProgress(Lifetime e, long from, long limit) {
        int[] seen = {loops.committed()};
        for (long t = from + PROGRESS_WINDOW_MICROS; t <= limit; t += PROGRESS_WINDOW_MICROS) {
            long end = t;
            e.sim.at(t, () -> {
                if (!loops.done() && loops.committed() == seen[0] && livenessProblem == null) {
                    livenessProblem = "nothing committed between " + (end - PROGRESS_WINDOW_MICROS) / 1000 + " and "
                            + end / 1000 + " virtual ms; live: " + e.live() + "; clients: " + loops.describe();
                }
                seen[0] = loops.committed();
            });
        }
    }

    /** Null if every unfinished client committed since {@code leftBefore} was taken, else which one did not. */
    private String stalledClient(int[] leftBefore) {
        for (int c = 0; c < leftBefore.length; c++) {
            if (loops.left(c) > 0 && loops.left(c) == leftBefore[c]) {
                return "; client " + c + " committed nothing in the last " + CLIENT_PROGRESS_MICROS / 1_000_000
                        + " virtual s (" + loops.left(c) + " of " + s.txnsPerClient() + " left)";
            }
        }
        return null;
    }

    /** Fails the run if the clients are not done and nothing commits within the bound after {@code healMicros}. */
    private void watchRecommit(Lifetime e, long healMicros, String what) {
        e.sim.at(healMicros + RECOMMIT_BOUND_MICROS, () -> {
            if (!loops.done() && commits.lastCommitMicros() < healMicros && livenessProblem == null) {
                livenessProblem = "nothing committed within " + RECOMMIT_BOUND_MICROS / 1000 + " virtual ms after "
                        + what + " (" + healMicros + " µs); live: " + e.live() + "; clients: " + loops.describe();
            }
        });
    }

    private void failIfClientFailed() {
        Throwable f = loops.failure();
        if (f == null) {
            return;
        }
        if (f instanceof AssertionError) {
            throw new Failure(Verdict.INVARIANT, String.valueOf(f.getMessage()));
        }
        throw new Failure(Verdict.ERROR, Verdict.describe(f));
    }
}
