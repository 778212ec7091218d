package org.tebaldi.autoconf.reconfig;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.msg.Reconfig;

/**
 * The reconfiguration server (dissertation §5.5), one swap at a time (requests queue), with two protocols:
 * <ul>
 *   <li><b>partial restart</b> (§5.5.1): clean-up at every coordinator (new transactions queued, running ones
 *       drained, optionally force-aborted after a timeout), prepare at every coordinator and data server (a new CC
 *       module for the new tree, storage untouched), then apply (the queued transactions start under the new
 *       tree). Prepare and apply are separate so no coordinator starts a transaction under the new tree before
 *       every node knows it.</li>
 *   <li><b>online update</b> (§5.5.2, Fig 5.10): the changed subtree's replacement is added beside it under the
 *       lowest parent that accepts a new child group ({@link OnlineUpdatePlan}); every data server installs the
 *       merged tree, then every coordinator routes new transactions to the new subtree — nothing pauses; the old
 *       subtree drains and is retired. Where no such parent exists it falls back to partial restart.</li>
 * </ul>
 * Knows the running tree: the one given at construction, then each swap's result.
 */
public final class ReconfigServer implements Actor {
    private enum Phase { CLEANUP, PREPARE, UPDATE_PREPARE, UPDATE_APPLY, RETIRE }

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
    private int awaiting;
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
        if (msg instanceof Reconfig.CleanupDone c) {
            forceAborted += c.forceAborted();
        }
        if (--awaiting > 0) {
            return;
        }
        switch (phase) {
            case CLEANUP -> {
                enter(Phase.PREPARE, coordinators + dataServers);
                broadcast(true, true, new Reconfig.Prepare(epoch, current.tree()));
            }
            case PREPARE -> {
                broadcast(true, false, new Reconfig.Apply(epoch));
                running = current.tree();
                finish("partial-restart");
            }
            case UPDATE_PREPARE -> {
                enter(Phase.UPDATE_APPLY, coordinators);
                broadcast(true, false, new Reconfig.UpdateApply(epoch, plan.merged()));
            }
            case UPDATE_APPLY -> {
                running = plan.merged();
                enter(Phase.RETIRE, coordinators + dataServers);
                broadcast(true, true, new Reconfig.Retire(epoch, plan.retired(), plan.replaced()));
            }
            case RETIRE -> {
                running = plan.retired();
                finish("online-update");
            }
            default -> throw new IllegalStateException("phase " + phase);
        }
    }

    private boolean forCurrent(Object msg) {
        if (msg instanceof Reconfig.CleanupDone c) {
            return phase == Phase.CLEANUP && c.epoch() == epoch;
        }
        if (msg instanceof Reconfig.PrepareDone p) {
            return (phase == Phase.PREPARE || phase == Phase.UPDATE_PREPARE) && p.epoch() == epoch;
        }
        if (msg instanceof Reconfig.Applied a) {
            return phase == Phase.UPDATE_APPLY && a.epoch() == epoch;
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
        java.util.Arrays.fill(phaseStart, UNSET);
        if (current.online()) {
            OnlineUpdatePlan.Result r = OnlineUpdatePlan.of(running, current.tree(), mechanisms);
            if (r.plan() == null && r.whyNot().equals("no change")) {
                note = "the target tree already runs";
                finish("none");
                return;
            }
            if (r.plan() != null) {
                plan = r.plan();
                enter(Phase.UPDATE_PREPARE, dataServers);
                broadcast(false, true, new Reconfig.UpdatePrepare(epoch, plan.merged()));
                return;
            }
            note = "online update impossible: " + r.whyNot();
        }
        enter(Phase.CLEANUP, coordinators);
        broadcast(true, false, new Reconfig.Cleanup(epoch, current.forceAbortMicros()));
    }

    private void enter(Phase p, int replies) {
        phase = p;
        awaiting = replies;
        phaseStart[p.ordinal()] = ctx.nowMicros();
    }

    private void broadcast(boolean tcs, boolean dss, Object msg) {
        if (tcs) {
            for (int i = 0; i < coordinators; i++) {
                ctx.send(NodeId.tc(i), msg);
            }
        }
        if (dss) {
            for (int i = 0; i < dataServers; i++) {
                ctx.send(NodeId.ds(i), msg);
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
                    span(Phase.CLEANUP, Phase.PREPARE, now), span(Phase.PREPARE, null, now), 0, 0, now - start,
                    forceAborted);
            default -> new SwapResult(protocol, note, epoch, start, 0, 0, 0, 0, 0, 0);
        };
        CompletableFuture<SwapResult> done = current.done();
        current = null;
        phase = null;
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
