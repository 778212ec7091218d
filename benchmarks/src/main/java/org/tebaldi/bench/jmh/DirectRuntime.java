package org.tebaldi.bench.jmh;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.MessageStats;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;

/**
 * A node runtime for microbenchmarks: no threads and no network. Messages wait in one FIFO queue and are handed,
 * one at a time, to the receiving actor on the caller's thread when the caller {@link #step}s; timers run on a
 * virtual clock (µs) that jumps to the next timer only when no message is waiting, so a mechanism's batching
 * interval or timeout costs no real time. The very same TC, DS and service actors run as in the embedded
 * runtime; what a benchmark measures is their CPU work. Messages are not counted ({@link #stats()} stays empty).
 * Not thread-safe.
 */
public final class DirectRuntime implements NodeRuntime {
    /** A message on its way. */
    public record Envelope(NodeId from, NodeId to, Object msg) {
    }

    private static final class Timer implements Comparable<Timer>, Cancellable {
        final long at;
        final long seq;
        final NodeId node;
        final Runnable task;
        boolean cancelled;
        final DirectRuntime rt;

        Timer(long at, long seq, NodeId node, Runnable task, DirectRuntime rt) {
            this.at = at;
            this.seq = seq;
            this.node = node;
            this.task = task;
            this.rt = rt;
        }

        @Override
        public int compareTo(Timer o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }

        @Override
        public void cancel() {
            if (!cancelled) {
                cancelled = true;
                rt.cancelled++;
            }
        }
    }

    private final class Node implements NodeContext {
        final NodeId id;
        final Actor actor;
        final Random random;

        Node(NodeId id, Actor actor) {
            this.id = id;
            this.actor = actor;
            this.random = new Random(id.hashCode());
        }

        @Override
        public NodeId self() {
            return id;
        }

        @Override
        public void send(NodeId to, Object msg) {
            queue.add(new Envelope(id, to, msg));
        }

        @Override
        public Cancellable schedule(long delayMicros, Runnable task) {
            Timer t = new Timer(now + Math.max(0, delayMicros), timerSeq++, id, task, DirectRuntime.this);
            timers.add(t);
            return t;
        }

        @Override
        public long nowMicros() {
            return now;
        }

        @Override
        public Random random() {
            return random;
        }
    }

    private final ArrayDeque<Envelope> queue = new ArrayDeque<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private final Map<NodeId, Node> nodes = new HashMap<>();
    private final MessageStats stats = new MessageStats();
    private long now = 1;
    private long timerSeq;
    private int cancelled;

    /** Registers the actor and runs its {@code onStart} right away. */
    @Override
    public void spawn(NodeId id, Actor actor) {
        if (nodes.containsKey(id)) {
            throw new IllegalStateException("node " + id + " already exists");
        }
        Node n = new Node(id, actor);
        nodes.put(id, n);
        actor.onStart(n);
    }

    @Override
    public void inject(NodeId to, Object msg) {
        queue.add(new Envelope(to, to, msg));
    }

    /** Queues {@code msg} from {@code from} (which need not be a spawned node, e.g. a benchmark's client). */
    public void send(NodeId from, NodeId to, Object msg) {
        queue.add(new Envelope(from, to, msg));
    }

    /** The next message to be delivered, or null if none is waiting. */
    public Envelope peek() {
        return queue.peek();
    }

    /**
     * Delivers the next message, or, when none waits, fires the next timer (moving the virtual clock to it).
     *
     * @return false if there was nothing to do
     * @throws IllegalStateException if a message is addressed to a node that does not exist
     */
    public boolean step() {
        Envelope e = queue.poll();
        if (e != null) {
            Node n = nodes.get(e.to());
            if (n == null) {
                throw new IllegalStateException("message " + e.msg() + " from " + e.from() + " to unknown node "
                        + e.to());
            }
            n.actor.onMessage(e.from(), e.msg());
            return true;
        }
        Timer t;
        while ((t = timers.poll()) != null) {
            if (t.cancelled) {
                cancelled--;
                continue;
            }
            now = Math.max(now, t.at);
            t.task.run();
            return true;
        }
        return false;
    }

    /**
     * Steps until {@code done} holds.
     *
     * @param maxSteps bound on the steps taken
     * @throws IllegalStateException if nothing is left to do, or {@code maxSteps} passed, before {@code done}
     */
    public void runUntil(BooleanSupplier done, int maxSteps) {
        for (int i = 0; !done.getAsBoolean(); i++) {
            if (i >= maxSteps || !step()) {
                throw new IllegalStateException((i >= maxSteps ? "no progress after " + maxSteps + " steps"
                        : "nothing left to run") + " (virtual time " + now + " us, " + timers.size() + " timer(s))");
            }
        }
        compactTimers();
    }

    /** Delivers every waiting message (and those they cause), without firing timers. */
    public void drainMessages() {
        while (!queue.isEmpty()) {
            step();
        }
        compactTimers();
    }

    /** Virtual time, µs. */
    public long nowMicros() {
        return now;
    }

    /** Always empty: this runtime does not count messages. */
    @Override
    public MessageStats stats() {
        return stats;
    }

    @Override
    public void close() {
        queue.clear();
        timers.clear();
    }

    /** Drops cancelled timers once they are most of the heap, so a long benchmark does not accumulate them. */
    private void compactTimers() {
        if (cancelled > 64 && cancelled * 2 > timers.size()) {
            timers.removeIf(t -> t.cancelled);
            cancelled = 0;
        }
    }
}
