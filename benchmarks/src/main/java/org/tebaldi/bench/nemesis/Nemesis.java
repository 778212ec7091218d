package org.tebaldi.bench.nemesis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.server.process.ProcessCluster;

/**
 * Carries a {@link FaultSchedule} out against a running {@link ProcessCluster} on a {@link NetFabric}
 * (docs/reliability.md, "Nemesis"), on a thread of its own: each fault its planned gap after the last one healed,
 * held as planned (a fault that would end past the schedule's end is skipped). Between faults and after the last
 * one, every {@value #REVIVE_POLL_MILLIS} ms, a node whose process is dead (killed, or exited because its ZooKeeper
 * session expired — which it learns only when the partition heals and it reconnects, so often after the heal) is
 * started again once the cluster's failover for it (if any) finished. {@link #finish} stops the schedule, heals the network,
 * continues every stopped node and restarts every dead one — the state the final reads and the checkers see. Every
 * action is logged with its time ({@link #events}).
 */
public final class Nemesis implements AutoCloseable {
    /** How often the schedule's thread looks for dead node processes between faults, ms. */
    static final long REVIVE_POLL_MILLIS = 250;

    private final FaultSchedule schedule;
    private final NetFabric net;
    private final Supplier<ProcessCluster> cluster;
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final List<NodeId> paused = new CopyOnWriteArrayList<>();
    private long t0 = System.nanoTime();
    private Thread thread;
    private volatile boolean stopping;
    private boolean finished;

    /**
     * @param cluster the running cluster (null until it started)
     */
    public Nemesis(FaultSchedule schedule, NetFabric net, Supplier<ProcessCluster> cluster) {
        this.schedule = schedule;
        this.net = net;
        this.cluster = cluster;
    }

    /** Starts the schedule now (the workload started). */
    public synchronized void start() {
        t0 = System.nanoTime();
        thread = new Thread(this::runSchedule, "tebaldi-nemesis");
        thread.setDaemon(true);
        thread.start();
    }

    private long now() {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private void log(String what) {
        events.add(String.format(java.util.Locale.ROOT, "%8.3f s  %s", now() / 1000.0, what));
    }

    private void runSchedule() {
        try {
            long plannedEnd = 0;
            for (FaultSchedule.Fault f : schedule.faults()) {
                if (!reviveUntil(now() + f.atMillis() - plannedEnd)) { // the planned gap, from the last heal
                    return;
                }
                plannedEnd = f.atMillis() + f.holdMillis();
                if (now() + f.holdMillis() > schedule.endMillis()) {
                    log("skipped " + f.kind() + " " + f.side() + ": it would be held past the schedule's end");
                    continue;
                }
                long start = now();
                inject(f);
                boolean on = sleepUntil(start + f.holdMillis());
                heal(f);
                if (!on) {
                    return;
                }
                reviveDead();
            }
            reviveUntil(Long.MAX_VALUE); // until the run stops: a node may exit well after the last heal
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            errors.add("nemesis: " + e.getMessage());
            log("error: " + e.getMessage());
        }
    }

    private boolean sleepUntil(long atMillis) throws InterruptedException {
        while (!stopping && now() < atMillis) {
            Thread.sleep(Math.min(50, Math.max(1, atMillis - now())));
        }
        return !stopping;
    }

    /** Waits until {@code atMillis}, restarting dead nodes every {@value #REVIVE_POLL_MILLIS} ms; false if stopped. */
    private boolean reviveUntil(long atMillis) throws InterruptedException {
        while (!stopping && now() < atMillis) {
            Thread.sleep(Math.min(REVIVE_POLL_MILLIS, Math.max(1, atMillis - now())));
            if (!stopping) {
                reviveDead();
            }
        }
        return !stopping;
    }

    private void inject(FaultSchedule.Fault f) {
        log("start " + f.kind() + " " + f.side() + " (hold " + f.holdMillis() + " ms)");
        ProcessCluster pc = cluster.get();
        switch (f.kind()) {
            case ISOLATE -> net.partition(f.side(), others(f.side()));
            case PRIMARY_FROM_ZK -> net.partition(f.side(), List.of(NetFabric.HOST));
            case HALVES -> net.partition(f.side(), others(f.side()));
            case KILL -> pc.process(node(f.side().get(0))).destroyForcibly();
            case PAUSE -> {
                NodeId n = node(f.side().get(0));
                signal(pc, n, "STOP");
                paused.add(n);
            }
            default -> throw new IllegalStateException("unknown fault " + f.kind());
        }
    }

    private List<String> others(List<String> side) {
        List<String> o = new ArrayList<>(net.endpoints());
        o.removeAll(side);
        return o;
    }

    private void heal(FaultSchedule.Fault f) {
        switch (f.kind()) {
            case ISOLATE, PRIMARY_FROM_ZK, HALVES -> net.heal();
            case PAUSE -> continueAll();
            default -> {
            }
        }
        log("healed " + f.kind() + " " + f.side());
    }

    private void continueAll() {
        ProcessCluster pc = cluster.get();
        for (NodeId n : paused) {
            signal(pc, n, "CONT");
        }
        paused.clear();
    }

    private static void signal(ProcessCluster pc, NodeId n, String sig) {
        Process p = pc.process(n);
        if (p != null && p.isAlive()) {
            NetFabric.run(List.of("kill", "-" + sig, Long.toString(p.pid())));
        }
    }

    /** Starts every dead node again, after the cluster's failover of it (if any) finished. */
    private void reviveDead() throws InterruptedException {
        ProcessCluster pc = cluster.get();
        for (NodeId n : pc.nodes()) {
            Process p = pc.process(n);
            if (p == null || p.isAlive()) {
                continue;
            }
            long end = System.nanoTime() + 60_000_000_000L;
            while (!pc.failedNodes().contains(n) && pc.process(n) == p && System.nanoTime() < end) {
                Thread.sleep(50); // until the cluster saw it leave (then its failover, if any, is queued)
            }
            pc.awaitFailovers(120_000);
            if (!pc.process(n).isAlive()) {
                log("restarting " + n);
                pc.restart(n);
                log(n + " is back");
            } else if (pc.process(n) != p) {
                log(n + " was promoted: " + pc.promotions());
            }
        }
    }

    private static NodeId node(String name) {
        Role r = name.startsWith("ds") ? Role.DS : Role.TC;
        return new NodeId(r, Integer.parseInt(name.substring(2)));
    }

    /**
     * Stops the schedule (a fault under way is healed), continues stopped nodes, heals the network and restarts
     * dead nodes; returns once the cluster is whole.
     */
    public synchronized void finish() throws InterruptedException {
        if (finished) {
            return;
        }
        finished = true;
        stopping = true;
        if (thread != null) {
            thread.join(300_000);
        }
        net.heal();
        if (cluster.get() != null) {
            continueAll();
            try {
                reviveDead();
            } catch (RuntimeException e) {
                errors.add("nemesis: after healing: " + e.getMessage());
                log("error after healing: " + e.getMessage());
            }
        }
        log("finished: network healed, every node running");
    }

    /** What happened, one line per action with its time. */
    public List<String> events() {
        return List.copyOf(events);
    }

    /** Actions that failed (a node that could not be restarted), empty if none. */
    public List<String> errors() {
        return List.copyOf(errors);
    }

    @Override
    public void close() throws InterruptedException {
        finish();
    }
}
