package org.tebaldi.autoconf.reconfig;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.msg.Reconfig;

/**
 * The reconfiguration server (dissertation §5.5), one swap at a time (requests queue), with two protocols:
 * <ul>
 *   <li><b>partial restart</b> (§5.5.1): clean-up at every coordinator (new transactions queued, running ones
 *       drained, optionally force-aborted after a timeout), prepare at every coordinator and data server (a new CC
 *       module for the new tree, storage untouched), then apply (the queued transactions start under the new
 *       tree; the swap is done when every coordinator acknowledged it). Prepare and apply are separate so no
 *       coordinator starts a transaction under the new tree before every node knows it.</li>
 *   <li><b>online update</b> (§5.5.2, Fig 5.10): the changed subtree's replacement is added beside it under the
 *       lowest parent that accepts a new child group ({@link OnlineUpdatePlan}); every data server installs the
 *       merged tree, then every coordinator routes new transactions to the new subtree — nothing pauses; the old
 *       subtree drains and is retired. Where no such parent exists it falls back to partial restart.</li>
 * </ul>
 * Knows the running tree: the one given at construction, then each swap's result. With {@link #resendAfter}, a
 * phase's request goes again to every node that has not answered it in time (lost messages); the nodes answer
 * repeated requests idempotently.
 */
public final class ReconfigServer implements Actor {
    private enum Phase { CLEANUP, PREPARE, APPLY, UPDATE_PREPARE, UPDATE_APPLY, RETIRE }

    private record Request(CcTree tree, boolean online, long forceAbortMicros, CompletableFuture<SwapResult> done) {
    }

    private final NodeId self;
    private final NodeRuntime runtime;
    private final int coordinators;
    private final int dataServers;
    private final Function<String, Mechanism> mechanisms;
    private final ArrayDeque<Request> requests = new ArrayDeque<>();
    private volatile CcTree running;
    private volatile java.util.function.Consumer<CcTree> onSwap = t -> { };
    private NodeContext ctx;
    private long epoch;
    private Request current;
    private OnlineUpdatePlan plan;
    private String note;
    private Phase phase;
    /** The current phase's request, and whom it went to: coordinators, data servers. */
    private Object request;
    private boolean toTcs;
    private boolean toDss;
    /** Who answered the current phase: coordinator i at bit i, data server j at bit coordinators + j. */
    private final BitSet answered = new BitSet();
    /** Send a phase's request again to the nodes that have not answered after this long, µs (0: never). */
    private long resendMicros;
    private int forceAborted;
    private static final long UNSET = Long.MIN_VALUE;
    private final long[] phaseStart = new long[Phase.values().length];

    /**
     * @param self       this node's address (where requests are injected)
     * @param running    the tree the cluster runs now
     * @param mechanisms mechanism lookup by name (to ask which parents accept new children)
     */
    public ReconfigServer(NodeId self, NodeRuntime runtime, int coordinators, int dataServers, CcTree running,
                          Function<String, Mechanism> mechanisms) {
        this.self = self;
        this.runtime = runtime;
        this.coordinators = coordinators;
        this.dataServers = dataServers;
        this.running = running;
        this.mechanisms = mechanisms;
    }

    /**
     * Swaps the cluster to {@code tree} with the partial restart protocol; callable from any thread.
     *
     * @param forceAbortMicros abort transactions still running this long after clean-up began (0: wait for them)
     * @return completes when every coordinator runs the new tree
     */
    public CompletableFuture<SwapResult> partialRestart(CcTree tree, long forceAbortMicros) {
        return request(new Request(tree, false, forceAbortMicros, new CompletableFuture<>()));
    }

    /**
     * Swaps the cluster to {@code tree} with the online update protocol, or with partial restart where it cannot
     * be used (the result's protocol and note say which, and why); callable from any thread.
     *
     * @param forceAbortMicros for a fallback partial restart: see {@link #partialRestart}
     * @return completes when the old subtree is retired everywhere (new transactions ran in the new tree since
     *         the apply phase)
     */
    public CompletableFuture<SwapResult> onlineUpdate(CcTree tree, long forceAbortMicros) {
        return request(new Request(tree, true, forceAbortMicros, new CompletableFuture<>()));
    }

    /**
     * Makes the protocols survive lost messages: a phase's request goes again, every {@code micros} µs, to each node
     * that has not answered it (a dropped connection loses what was in flight, docs/architecture.md "Failures");
     * every node answers a repeated request of a step it already took without taking it again. Call before the
     * first swap.
     *
     * @param micros resend interval, µs; 0 (the default) never resends
     * @return this
     * @throws IllegalArgumentException if {@code micros} is negative
     */
    public ReconfigServer resendAfter(long micros) {
        if (micros < 0) {
            throw new IllegalArgumentException("resend interval must be ≥ 0 µs, got " + micros);
        }
        this.resendMicros = micros;
        return this;
    }

    /**
     * Called on the server's thread after each completed swap with the tree the cluster now runs (e.g. to publish it
     * in ZooKeeper).
     */
    public void onSwap(java.util.function.Consumer<CcTree> listener) {
        this.onSwap = listener;
    }

    /** The tree the cluster runs (after an online update: with retired subtrees), readable from any thread. */
    public CcTree running() {
        return running;
    }

    private CompletableFuture<SwapResult> request(Request r) {
        runtime.inject(self, r);
        return r.done();
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void onMessage(NodeId from, Object msg) {
        if (msg instanceof Request r) {
            requests.add(r);
            next();
            return;
        }
        if (current == null || !forCurrent(msg)) {
            return;
        }
        int slot = from.role() == Role.TC ? from.index() : coordinators + from.index();
        if (answered.get(slot)) {
            return; // a second answer to a request sent again
        }
        answered.set(slot);
        if (msg instanceof Reconfig.CleanupDone c) {
            forceAborted += c.forceAborted();
        }
        if (answered.cardinality() < expected()) {
            return;
        }
        switch (phase) {
            case CLEANUP -> enter(Phase.PREPARE, true, true, new Reconfig.Prepare(epoch, current.tree()));
            case PREPARE -> enter(Phase.APPLY, true, false, new Reconfig.Apply(epoch));
            case APPLY -> {
                running = current.tree();
                finish("partial-restart");
            }
            case UPDATE_PREPARE -> enter(Phase.UPDATE_APPLY, true, false, new Reconfig.UpdateApply(epoch, plan.merged()));
            case UPDATE_APPLY -> {
                running = plan.merged();
                enter(Phase.RETIRE, true, true, new Reconfig.Retire(epoch, plan.retired(), plan.replaced()));
            }
            case RETIRE -> {
                running = plan.retired();
                finish("online-update");
            }
            default -> throw new IllegalStateException("phase " + phase);
        }
    }

    private int expected() {
        return (toTcs ? coordinators : 0) + (toDss ? dataServers : 0);
    }

    private boolean forCurrent(Object msg) {
        if (msg instanceof Reconfig.CleanupDone c) {
            return phase == Phase.CLEANUP && c.epoch() == epoch;
        }
        if (msg instanceof Reconfig.PrepareDone p) {
            return (phase == Phase.PREPARE || phase == Phase.UPDATE_PREPARE) && p.epoch() == epoch;
        }
        if (msg instanceof Reconfig.Applied a) {
            return (phase == Phase.APPLY || phase == Phase.UPDATE_APPLY) && a.epoch() == epoch;
        }
        if (msg instanceof Reconfig.Retired r) {
            return phase == Phase.RETIRE && r.epoch() == epoch;
        }
        return false;
    }

    private void next() {
        if (current != null || requests.isEmpty()) {
            return;
        }
        current = requests.poll();
        epoch++;
        forceAborted = 0;
        note = null;
        plan = null;
        Arrays.fill(phaseStart, UNSET);
        if (current.online()) {
            OnlineUpdatePlan.Result r = OnlineUpdatePlan.of(running, current.tree(), mechanisms);
            if (r.plan() == null && r.whyNot().equals("no change")) {
                note = "the target tree already runs";
                finish("none");
                return;
            }
            if (r.plan() != null) {
                plan = r.plan();
                enter(Phase.UPDATE_PREPARE, false, true, new Reconfig.UpdatePrepare(epoch, plan.merged()));
                return;
            }
            note = "online update impossible: " + r.whyNot();
        }
        enter(Phase.CLEANUP, true, false, new Reconfig.Cleanup(epoch, current.forceAbortMicros()));
    }

    /** Starts phase {@code p}: sends {@code msg} to every coordinator ({@code tcs}) and data server ({@code dss}). */
    private void enter(Phase p, boolean tcs, boolean dss, Object msg) {
        phase = p;
        request = msg;
        toTcs = tcs;
        toDss = dss;
        answered.clear();
        phaseStart[p.ordinal()] = ctx.nowMicros();
        send(false);
        if (resendMicros > 0) {
            long e = epoch;
            scheduleResend(e, p);
        }
    }

    private void scheduleResend(long e, Phase p) {
        ctx.schedule(resendMicros, () -> {
            if (current != null && epoch == e && phase == p) {
                send(true);
                scheduleResend(e, p);
            }
        });
    }

    /** Sends the phase's request to its nodes ({@code unansweredOnly}: those that have not answered). */
    private void send(boolean unansweredOnly) {
        if (toTcs) {
            for (int i = 0; i < coordinators; i++) {
                if (!unansweredOnly || !answered.get(i)) {
                    ctx.send(NodeId.tc(i), request);
                }
            }
        }
        if (toDss) {
            for (int i = 0; i < dataServers; i++) {
                if (!unansweredOnly || !answered.get(coordinators + i)) {
                    ctx.send(NodeId.ds(i), request);
                }
            }
        }
    }

    private void finish(String protocol) {
        long now = ctx.nowMicros();
        long start = firstStart(now);
        SwapResult r = switch (protocol) {
            case "online-update" -> new SwapResult(protocol, note, epoch, start, 0,
                    span(Phase.UPDATE_PREPARE, Phase.UPDATE_APPLY, now), span(Phase.UPDATE_APPLY, Phase.RETIRE, now),
                    span(Phase.RETIRE, null, now), now - start, 0);
            case "partial-restart" -> new SwapResult(protocol, note, epoch, start,
                    span(Phase.CLEANUP, Phase.PREPARE, now), span(Phase.PREPARE, Phase.APPLY, now), 0, 0, now - start,
                    forceAborted);
            default -> new SwapResult(protocol, note, epoch, start, 0, 0, 0, 0, 0, 0);
        };
        CompletableFuture<SwapResult> done = current.done();
        current = null;
        phase = null;
        request = null;
        if (!protocol.equals("none")) {
            onSwap.accept(running);
        }
        done.complete(r);
        next();
    }

    private long firstStart(long now) {
        long s = Long.MAX_VALUE;
        for (long t : phaseStart) {
            if (t != UNSET) {
                s = Math.min(s, t);
            }
        }
        return s == Long.MAX_VALUE ? now : s;
    }

    /** Time from the start of {@code p} to the start of {@code until} (or {@code now}); 0 if {@code p} never ran. */
    private long span(Phase p, Phase until, long now) {
        long s = phaseStart[p.ordinal()];
        if (s == UNSET) {
            return 0;
        }
        long e = until == null || phaseStart[until.ordinal()] == UNSET ? now : phaseStart[until.ordinal()];
        return e - s;
    }
}
