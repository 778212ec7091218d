package org.tebaldi.core.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Blocking code run in a {@link SimulatedRuntime}'s virtual time (docs/simulation.md, "Tuning in virtual time"), e.g.
 * the auto-configurator, which blocks while it waits for measurements and swaps. The code runs on a thread of its
 * own, but only while the simulation thread waits for it: control passes back and forth and the two never run at
 * once, so the code may block as it would beside a live cluster and a seed still reproduces the run. It blocks only
 * through this class — {@link #sleepMicros} (virtual µs) and {@link #await} (a future that a node completes) — and
 * each wait hands control back to the simulation, which runs on until the wake-up: the end of a sleep is an event
 * outside any node at its virtual instant (no virtual CPU), a completed future wakes it at the instant it
 * completed. What the code does between two waits (reading counters, injecting messages, scheduling events) happens
 * at one instant of virtual time, between two simulation events.
 *
 * <p>{@link #start} and {@link #interrupt} are called on the simulation thread (or before the simulation runs); the
 * waits on the code's own thread. Code that blocks in any other way (a real sleep, {@code Future.get}) would stall
 * the simulation for good.
 */
public final class SimulatedThread {
    /** The code: returns normally, or with {@link InterruptedException} once {@link #interrupt}ed. */
    @FunctionalInterface
    public interface Body {
        /** @throws InterruptedException when a wait was interrupted */
        void run() throws InterruptedException;
    }

    private static final ThreadLocal<SimulatedThread> CURRENT = new ThreadLocal<>();

    private final SimulatedRuntime sim;
    private final Thread thread;
    private final Object lock = new Object();
    /** Whose turn it is: the code's (true) or the simulation's (false). Guarded by {@link #lock}. */
    private boolean codeTurn;
    private boolean started;
    private boolean finished;
    private volatile boolean interrupted;
    private Throwable failure;
    /** Counts the waits; a wake-up resumes only the wait it was made for. Code side only, read under the turn. */
    private long wait;
    /** The pending wake-up of the current sleep, or null. */
    private Cancellable wake;

    /**
     * @param sim  the simulation whose virtual time the code runs in
     * @param name the thread's name (for stack dumps)
     * @param body the code
     */
    public SimulatedThread(SimulatedRuntime sim, String name, Body body) {
        this.sim = sim;
        this.thread = new Thread(() -> main(body), name);
        this.thread.setDaemon(true);
    }

    /**
     * The simulated thread running the caller, or null when the caller is not one (e.g. to tell whether a
     * blocking call must go through virtual time).
     */
    public static SimulatedThread current() {
        return CURRENT.get();
    }

    /**
     * Starts the code and runs it until its first wait (or its end). Simulation thread.
     *
     * @throws IllegalStateException if started already
     */
    public void start() {
        synchronized (lock) {
            if (started) {
                throw new IllegalStateException("simulated thread " + thread.getName() + " started already");
            }
            started = true;
        }
        thread.start();
        resume();
    }

    /** Virtual time now, ns. */
    public long nowNanos() {
        return sim.nowNanos();
    }

    /**
     * Waits {@code micros} µs of virtual time (0 or less: hands control to the simulation and resumes at the same
     * instant, after the events already due). The code's thread only.
     *
     * @throws InterruptedException if {@link #interrupt}ed (before or during the wait)
     * @throws IllegalStateException if called from another thread
     */
    public void sleepMicros(long micros) throws InterruptedException {
        check();
        long w = ++wait;
        wake = sim.at(sim.nowMicros() + Math.max(0, micros), () -> resume(w));
        pause();
    }

    /**
     * Waits until {@code f} completes — it must be completed by simulation code (a node's handler, an event) — and
     * returns its value. The code's thread only.
     *
     * @throws ExecutionException   if {@code f} completed exceptionally
     * @throws InterruptedException if {@link #interrupt}ed (before or during the wait)
     * @throws IllegalStateException if called from another thread
     */
    public <T> T await(CompletableFuture<T> f) throws InterruptedException, ExecutionException {
        check();
        if (!f.isDone()) {
            long w = ++wait;
            wake = null;
            // completes on the simulation thread, inside a handler: the wake-up runs as an event right after it
            f.whenComplete((v, x) -> sim.at(sim.nowMicros(), () -> resume(w)));
            pause();
        }
        return f.get();
    }

    /**
     * Ends the code's current wait, or its next one, with {@link InterruptedException}, and runs it until it ends
     * or waits again (a wait after an interrupt fails at once, so the code ends unless it catches that and goes
     * on computing). No effect once the code ended. Simulation thread.
     */
    public void interrupt() {
        interrupted = true;
        boolean waiting;
        synchronized (lock) {
            waiting = started && !finished;
        }
        if (waiting) {
            if (wake != null) {
                wake.cancel();
            }
            wait++; // a later wake-up of the interrupted wait resumes nothing
            resume();
        }
    }

    /** Whether the code ended (returned, was interrupted, or threw). */
    public boolean finished() {
        synchronized (lock) {
            return finished;
        }
    }

    /** What the code threw (other than {@link InterruptedException}), or null. */
    public Throwable failure() {
        synchronized (lock) {
            return failure;
        }
    }

    private void check() throws InterruptedException {
        if (CURRENT.get() != this) {
            throw new IllegalStateException("only the simulated thread " + thread.getName() + " may wait on it");
        }
        if (interrupted) {
            throw new InterruptedException("simulated thread " + thread.getName() + " was interrupted");
        }
    }

    /** A wake-up of wait {@code w}: resumes the code if it still waits there. Simulation thread. */
    private void resume(long w) {
        if (w == wait) {
            resume();
        }
    }

    /** Hands control to the code until it waits again or ends. Simulation thread. */
    private void resume() {
        boolean intr = false;
        synchronized (lock) {
            if (finished) {
                return;
            }
            codeTurn = true;
            lock.notifyAll();
            while (codeTurn) {
                try {
                    lock.wait();
                } catch (InterruptedException x) {
                    intr = true; // the code runs at this instant of virtual time; it hands back soon
                }
            }
        }
        if (intr) {
            Thread.currentThread().interrupt();
        }
    }

    /** Hands control to the simulation until a wake-up or {@link #interrupt}. The code's thread. */
    private void pause() throws InterruptedException {
        synchronized (lock) {
            codeTurn = false;
            lock.notifyAll();
            while (!codeTurn) {
                lock.wait();
            }
        }
        if (interrupted) {
            throw new InterruptedException("simulated thread " + thread.getName() + " was interrupted");
        }
    }

    private void main(Body body) {
        CURRENT.set(this);
        try {
            synchronized (lock) {
                while (!codeTurn) {
                    lock.wait();
                }
            }
            body.run();
        } catch (InterruptedException x) {
            // ended by interrupt()
        } catch (Throwable t) {
            synchronized (lock) {
                failure = t;
            }
        } finally {
            synchronized (lock) {
                finished = true;
                codeTurn = false;
                lock.notifyAll();
            }
        }
    }
}
