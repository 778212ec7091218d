package org.tebaldi.core.runtime;

/**
 * One entry of a {@link SimulatedRuntime}'s agenda: something that happens at virtual time {@link #time} (ns) — a
 * node's start, a message arriving, a timer, driver code, a random pause, the end of a handler's or helper thread's
 * CPU time (hardware mode). Ordered by time, then by {@link #seq} (the order they were queued in), so that equal
 * times keep a deterministic order and each link stays FIFO. Cancelled entries stay queued and are skipped.
 */
final class SimEvent implements Comparable<SimEvent>, Cancellable {
    static final int START = 0;
    static final int MSG = 1;
    static final int TIMER = 2;
    /** Driver code or a helper thread's result, run outside any node. */
    static final int EXTERNAL = 3;
    /** The model's next random node pause. */
    static final int PAUSE = 4;
    /** Hardware mode: a node's handler has used up its CPU time. */
    static final int DONE = 5;
    /** Hardware mode: a helper thread's work ({@link CoreScheduler.Job}) has used up its CPU time. */
    static final int JOB_DONE = 6;

    final long time;
    final long seq;
    final int kind;
    final NodeId node;
    final NodeId from;
    final Object payload;
    boolean cancelled;
    /** Re-queued by a pause: it had arrived at its node already (a connection drop cannot lose it). */
    boolean held;

    SimEvent(long time, long seq, int kind, NodeId node, NodeId from, Object payload) {
        this.time = time;
        this.seq = seq;
        this.kind = kind;
        this.node = node;
        this.from = from;
        this.payload = payload;
    }

    @Override
    public int compareTo(SimEvent o) {
        int c = Long.compare(time, o.time);
        return c != 0 ? c : Long.compare(seq, o.seq);
    }

    @Override
    public void cancel() {
        cancelled = true;
    }
}
