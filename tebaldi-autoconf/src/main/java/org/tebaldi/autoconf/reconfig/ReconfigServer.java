package org.tebaldi.autoconf.reconfig;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.msg.Reconfig;

/**
 * The reconfiguration server (dissertation §5.5.1): runs the partial restart protocol — clean-up at every
 * coordinator (new transactions queued, running ones drained, optionally force-aborted after a timeout), prepare
 * at every coordinator and data server (a new CC module for the new tree, storage untouched), then apply (the
 * queued transactions start under the new tree). Prepare and apply are separate so no coordinator starts a
 * transaction under the new tree before every node knows it. One swap at a time; requests queue.
 */
public final class ReconfigServer implements Actor {
    private record Request(CcTree tree, long forceAbortMicros, CompletableFuture<SwapResult> done) {
    }

    private final NodeId self;
    private final NodeRuntime runtime;
    private final int coordinators;
    private final int dataServers;
    private final ArrayDeque<Request> requests = new ArrayDeque<>();
    private NodeContext ctx;
    private long epoch;
    private Request current;
    private int awaiting;
    private int forceAborted;
    private long start;
    private long cleanupDone;

    /** @param self this node's address (where requests are injected) */
    public ReconfigServer(NodeId self, NodeRuntime runtime, int coordinators, int dataServers) {
        this.self = self;
        this.runtime = runtime;
        this.coordinators = coordinators;
        this.dataServers = dataServers;
    }

    /**
     * Swaps the cluster to {@code tree} with the partial restart protocol; callable from any thread.
     *
     * @param forceAbortMicros abort transactions still running this long after clean-up began (0: wait for them)
     * @return completes when every coordinator runs the new tree
     */
    public CompletableFuture<SwapResult> partialRestart(CcTree tree, long forceAbortMicros) {
        CompletableFuture<SwapResult> f = new CompletableFuture<>();
        runtime.inject(self, new Request(tree, forceAbortMicros, f));
        return f;
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
        } else if (msg instanceof Reconfig.CleanupDone c && current != null && c.epoch() == epoch) {
            forceAborted += c.forceAborted();
            if (--awaiting == 0) {
                cleanupDone = ctx.nowMicros();
                awaiting = coordinators + dataServers;
                for (int i = 0; i < coordinators; i++) {
                    ctx.send(NodeId.tc(i), new Reconfig.Prepare(epoch, current.tree()));
                }
                for (int i = 0; i < dataServers; i++) {
                    ctx.send(NodeId.ds(i), new Reconfig.Prepare(epoch, current.tree()));
                }
            }
        } else if (msg instanceof Reconfig.PrepareDone p && current != null && p.epoch() == epoch) {
            if (--awaiting == 0) {
                for (int i = 0; i < coordinators; i++) {
                    ctx.send(NodeId.tc(i), new Reconfig.Apply(epoch));
                }
                long now = ctx.nowMicros();
                current.done().complete(new SwapResult("partial-restart", epoch, start, cleanupDone - start,
                        now - cleanupDone, now - start, forceAborted));
                current = null;
                next();
            }
        }
    }

    private void next() {
        if (current != null || requests.isEmpty()) {
            return;
        }
        current = requests.poll();
        epoch++;
        forceAborted = 0;
        start = ctx.nowMicros();
        awaiting = coordinators;
        for (int i = 0; i < coordinators; i++) {
            ctx.send(NodeId.tc(i), new Reconfig.Cleanup(epoch, current.forceAbortMicros()));
        }
    }
}
