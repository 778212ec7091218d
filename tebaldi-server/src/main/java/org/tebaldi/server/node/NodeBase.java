package org.tebaldi.server.node;

import java.util.ArrayDeque;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.CcServices;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;

/**
 * Common base of TC and DS actors: the node context, and a ready queue of continuations resumed after the
 * current event ({@link #later}), so a CC part that wakes a parked transaction (e.g. on lock release) never
 * re-enters the code that is running. Every message and timer is followed by draining the queue.
 */
public abstract class NodeBase implements Actor, CcServices, org.tebaldi.core.cc.HotRecords {
    private final ArrayDeque<Runnable> ready = new ArrayDeque<>();
    protected NodeContext ctx;
    protected BlockingSink blocking;
    private long requestIds;

    @Override
    public final void onStart(NodeContext ctx) {
        this.ctx = ctx;
        started();
        drain();
    }

    @Override
    public final void onMessage(NodeId from, Object msg) {
        handle(from, msg);
        drain();
    }

    /** The cluster configuration with the tree this node runs now. */
    protected abstract ClusterConfig config();

    @Override
    public org.tebaldi.core.db.Database database() {
        return config().db();
    }

    /** The placement's hot records ({@link org.tebaldi.core.cc.HotRecords}, a capability of every node). */
    @Override
    public boolean hot(org.tebaldi.core.model.Key key) {
        return config().partitioner().hot(key);
    }

    @Override
    public long waitTimeoutMicros() {
        return config().waitTimeoutMicros();
    }

    /** Called once when the node starts. */
    protected void started() {
    }

    /** Handles one message; continuations queued with {@link #later} run afterwards. */
    protected abstract void handle(NodeId from, Object msg);

    /**
     * Continuations one event may run before its drain counts as a storm: far above what releasing every waiter of
     * a node takes, yet reached within a second by a wait that re-queues itself at once (which would otherwise spin
     * at one instant — in the simulation, with virtual time frozen — until the heap is gone).
     */
    static final int STORM_LIMIT = 1_000_000;

    private void drain() {
        Runnable r;
        int n = 0;
        while ((r = ready.poll()) != null) {
            if (++n > STORM_LIMIT) {
                ready.clear();
                throw new IllegalStateException(self() + ": more than " + STORM_LIMIT + " continuations after one "
                        + "event (a wait that wakes at once and waits again?); last: " + r.getClass().getName());
            }
            r.run();
        }
    }

    @Override
    public NodeId self() {
        return ctx.self();
    }

    @Override
    public long nowMicros() {
        return ctx.nowMicros();
    }

    @Override
    public Cancellable schedule(long delayMicros, Runnable task) {
        return ctx.schedule(delayMicros, () -> {
            task.run();
            drain();
        });
    }

    @Override
    public long newRequestId() {
        return ++requestIds;
    }

    @Override
    public void send(NodeId to, int ccNode, Object payload) {
        ctx.send(to, new CcEnvelope(ccNode, payload));
    }

    @Override
    public BlockingSink blocking() {
        return blocking;
    }

    /**
     * Turns profiling on: blocking events go to the monitor at {@code monitor}, batched, each within
     * {@code flushMicros} µs of being recorded ({@link BlockingRecorder}). Call on the node's thread (e.g. from
     * {@link #started()}).
     */
    protected void enableProfiling(NodeId monitor, long flushMicros) {
        this.blocking = new BlockingRecorder(this, monitor, flushMicros);
    }

    @Override
    public void later(Runnable task) {
        ready.add(task);
    }
}
