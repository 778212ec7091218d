package org.tebaldi.core.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.cost.HandlerProfile;
import org.tebaldi.core.runtime.cost.HandlerUnits;

/**
 * One actor of an {@link EmbeddedRuntime} with its {@link Mailbox}: scheduled on the runtime's executor when a
 * message arrives and it is not scheduled already, so it runs on at most one thread at a time; a run handles up to
 * {@value #BATCH} messages, timer ticks and its start, in arrival order. It estimates its handlers' CPU time from the
 * thread's CPU clock in one run of {@value #CPU_SAMPLE}, and times each handler into its {@link HandlerProfile} while
 * profiling is on (docs/simulation.md, "Calibration"). It is also the actor's {@link NodeContext}: sends go to the
 * runtime's transport, timers to the runtime's timers, the clock is the runtime's. An exception thrown by a handler
 * is logged and kept by the runtime; the actor goes on with its next message.
 */
final class ActorCell implements Runnable, NodeContext {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRuntime.class);
    /** Messages one run of the mailbox handles at most. */
    static final int BATCH = 128;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final boolean CPU_CLOCK = CPU.isCurrentThreadCpuTimeSupported();
    /**
     * One run of a node's mailbox in this many reads the thread's CPU clock (a system call) before and after, and
     * counts this many times the difference: an unbiased estimate of each node's CPU time at 1/16 of the cost.
     */
    static final int CPU_SAMPLE = 16;
    /** The message that runs the actor's {@code onStart}. */
    static final Object START = new Object();

    /** An actor timer; cancelling drops the task at once, so the timer retains nothing until its deadline. */
    static final class TimerTick implements Cancellable {
        volatile Runnable task;
        volatile Cancellable pending;

        TimerTick(Runnable task) {
            this.task = task;
        }

        @Override
        public void cancel() {
            task = null;
            Cancellable p = pending;
            if (p != null) {
                p.cancel();
            }
        }
    }

    private final EmbeddedRuntime rt;
    final NodeId id;
    final Actor actor;
    final Mailbox mailbox = new Mailbox();
    /** The messages of the current run (used only by the thread running the cell). */
    final NodeId[] runFrom = new NodeId[BATCH];
    final Object[] runMsg = new Object[BATCH];
    final AtomicBoolean scheduled = new AtomicBoolean();
    final Random random;
    /** Handler timings of this node, recorded while {@link HandlerProfile#enabled()} (written by the running thread). */
    final HandlerProfile profile;
    /** CPU time of this node's handlers so far, ns, estimated from sampled runs (written by the running thread). */
    volatile long cpuNanos;
    /** Runs so far (only the thread running the cell writes it). */
    int runs;

    ActorCell(EmbeddedRuntime rt, NodeId id, Actor actor, Random random) {
        this.rt = rt;
        this.id = id;
        this.actor = actor;
        this.random = random;
        this.profile = new HandlerProfile(id.role());
    }

    void enqueue(NodeId from, Object msg) {
        mailbox.put(from, msg);
        wake();
    }

    /** Schedules the cell unless it is scheduled already (it then sees what was enqueued before this call). */
    void wake() {
        if (scheduled.compareAndSet(false, true)) {
            rt.submit(this);
        }
    }

    @Override
    public void run() {
        boolean sample = CPU_CLOCK && (++runs & (CPU_SAMPLE - 1)) == 0;
        long cpu = sample ? CPU.getCurrentThreadCpuTime() : 0;
        int n = mailbox.take(runFrom, runMsg, BATCH);
        if (profile.enabled()) {
            runProfiled(n);
        } else {
            for (int i = 0; i < n; i++) {
                handle(runFrom[i], runMsg[i]);
                runFrom[i] = null;
                runMsg[i] = null;
            }
        }
        if (sample) {
            cpuNanos += (CPU.getCurrentThreadCpuTime() - cpu) * CPU_SAMPLE;
        }
        scheduled.set(false);
        if (!mailbox.isEmpty() && scheduled.compareAndSet(false, true)) {
            rt.submit(this);
        }
    }

    /**
     * The run's {@code n} messages, each handler timed into {@link #profile} (start and cancelled timers not); the
     * run's first handler is recorded as cold (the node was idle before it).
     */
    private void runProfiled(int n) {
        for (int i = 0; i < n; i++) {
            Object msg = runMsg[i];
            boolean timer = msg instanceof TimerTick;
            boolean skip = msg == START || timer && ((TimerTick) msg).task == null;
            boolean cold = i == 0;
            HandlerUnits.take();
            HandlerUnits.takeKind();
            long t0 = System.nanoTime();
            handle(runFrom[i], msg);
            long ns = System.nanoTime() - t0;
            int extra = HandlerUnits.take();
            String kind = HandlerUnits.takeKind();
            if (!skip) {
                if (timer) {
                    profile.timer(kind, extra, cold, ns);
                } else {
                    profile.message(msg, extra, kind, cold, ns);
                }
            }
            runFrom[i] = null;
            runMsg[i] = null;
        }
    }

    private void handle(NodeId from, Object msg) {
        try {
            if (msg == START) {
                actor.onStart(this);
            } else if (msg instanceof TimerTick t) {
                Runnable task = t.task;
                if (task != null) {
                    task.run();
                }
            } else {
                actor.onMessage(from, msg);
            }
        } catch (Throwable t) {
            rt.failed(t);
            LOG.error("node {} failed handling {}", id, msg.getClass().getSimpleName(), t);
        }
    }

    @Override
    public NodeId self() {
        return id;
    }

    @Override
    public void send(NodeId to, Object msg) {
        rt.transport().send(id, to, msg);
    }

    @Override
    public Cancellable schedule(long delayMicros, Runnable task) {
        TimerTick t = new TimerTick(task);
        if (delayMicros <= 0) {
            enqueue(id, t);
        } else {
            t.pending = rt.later(delayMicros, () -> enqueue(id, t));
        }
        return t;
    }

    @Override
    public long nowMicros() {
        return rt.clockMicros();
    }

    @Override
    public Random random() {
        return random;
    }
}
