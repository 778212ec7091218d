package org.tebaldi.server.node;

import java.util.Arrays;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.profile.BlockingBatch;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeId;

/**
 * The sampling module of the profiler on one node (dissertation §5.3.2): blocking events are appended to a buffer
 * and sent to the profiler monitor in batches, so that every event leaves within {@code flushMicros} of being
 * recorded: when the buffer fills; when an event is recorded half of {@code flushMicros} or more after the batch's
 * first (so a node that keeps recording sends before its timer comes due, and cancels it); else on the timer the
 * batch's first event armed, {@code flushMicros} after it (a node that recorded its last events for a while; a node
 * that records nothing runs no timer). Runs on the node's thread.
 * Installed only when profiling is on; otherwise the node's sink is null and CC parts skip the call.
 */
public final class BlockingRecorder implements BlockingSink {
    /** Events a batch holds at most. */
    static final int CAPACITY = 1024;

    private final NodeBase node;
    private final NodeId monitor;
    private final long flushMicros;
    private final long[] buf = new long[CAPACITY * BlockingBatch.STRIDE];
    private int n;
    /** The pending flush timer of the buffered batch, or null. */
    private Cancellable timer;
    /** When the buffered batch's first event was recorded, µs (node clock). */
    private long firstMicros;

    /** @param flushMicros how long an event waits at most before it is sent, µs */
    BlockingRecorder(NodeBase node, NodeId monitor, long flushMicros) {
        this.node = node;
        this.monitor = monitor;
        this.flushMicros = flushMicros;
    }

    @Override
    public void blocked(long waiter, int waiterType, long blocker, int blockerType, long beginMicros, long endMicros) {
        int i = n * BlockingBatch.STRIDE;
        buf[i] = waiter;
        buf[i + 1] = waiterType;
        buf[i + 2] = blocker;
        buf[i + 3] = blockerType;
        buf[i + 4] = beginMicros;
        buf[i + 5] = endMicros;
        long now = node.ctx.nowMicros();
        if (n++ == 0) {
            firstMicros = now;
            timer = node.ctx.schedule(flushMicros, () -> {
                timer = null;
                flush();
            });
        }
        if (n == CAPACITY || 2 * (now - firstMicros) >= flushMicros) {
            flush();
        }
    }

    /** Sends what is buffered (and disarms its timer). */
    void flush() {
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
        if (n > 0) {
            node.ctx.send(monitor, new BlockingBatch(Arrays.copyOf(buf, n * BlockingBatch.STRIDE)));
            n = 0;
        }
    }
}
