package org.tebaldi.server.node;

import java.util.Arrays;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.profile.BlockingBatch;
import org.tebaldi.core.runtime.NodeId;

/**
 * The sampling module of the profiler on one node (dissertation §5.3.2): blocking events are appended to a buffer
 * and sent to the profiler monitor in batches — when the buffer fills and on a timer. Runs on the node's thread.
 * Installed only when profiling is on; otherwise the node's sink is null and CC parts skip the call.
 */
public final class BlockingRecorder implements BlockingSink {
    private static final int CAPACITY = 1024;

    private final NodeBase node;
    private final NodeId monitor;
    private final long[] buf = new long[CAPACITY * BlockingBatch.STRIDE];
    private int n;

    BlockingRecorder(NodeBase node, NodeId monitor) {
        this.node = node;
        this.monitor = monitor;
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
        if (++n == CAPACITY) {
            flush();
        }
    }

    /** Sends what is buffered. */
    void flush() {
        if (n > 0) {
            node.ctx.send(monitor, new BlockingBatch(Arrays.copyOf(buf, n * BlockingBatch.STRIDE)));
            n = 0;
        }
    }
}
