package org.tebaldi.bench.nemesis;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;

/**
 * A seeded schedule of faults for a process-mode cluster on a {@link NetFabric} (docs/reliability.md, "Nemesis"):
 * one fault at a time, each starting a random 0.5–2 s after the last healed, held 1–4 s — shorter than half the
 * ZooKeeper session timeout, so sessions survive it — except, with replication on, at most one partition of a primary
 * from ZooKeeper held past its session timeout, which makes the cluster promote a backup while the old primary
 * still runs. The same seed, duration and nodes give the same schedule.
 *
 * @param seed      the seed it was drawn from
 * @param endMillis no fault is held past this time, ms after the workload started: the last 40% of the run (at
 *                  least 12 s) is left for dead nodes to restart and the cluster to recover, and must commit
 * @param faults    in start order; their gaps (from one fault's heal to the next one's start) and holds are what
 *                  the {@link Nemesis} keeps when a restart delays it, so a late fault is held as long as planned
 */
public record FaultSchedule(long seed, long endMillis, List<Fault> faults) {
    /** What a fault does. */
    public enum Kind {
        /** One node cut off from every other endpoint (nodes and the host: runner and ZooKeeper). */
        ISOLATE,
        /** A data server (a primary) cut off from the host — ZooKeeper — only; it still reaches its peers. */
        PRIMARY_FROM_ZK,
        /** The endpoints split into two random halves. */
        HALVES,
        /** A data server killed with SIGKILL, started again after the hold (from its store, or promoted). */
        KILL,
        /** A node stopped with SIGSTOP, continued with SIGCONT after the hold. */
        PAUSE
    }

    /**
     * One fault.
     *
     * @param atMillis   when it starts, ms after the workload started
     * @param kind       what it does
     * @param side       the node it targets (ISOLATE, PRIMARY_FROM_ZK, KILL, PAUSE) or one half's endpoints
     * @param holdMillis how long until it is healed (the partition removed, the node restarted or continued), ms
     */
    public record Fault(long atMillis, Kind kind, List<String> side, long holdMillis) {
        /** One line: {@code 2.1 s ISOLATE [ds0] for 3.0 s}. */
        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%.1f s %s %s for %.1f s", atMillis / 1000.0, kind, side,
                    holdMillis / 1000.0);
        }
    }

    /**
     * Draws a schedule.
     *
     * @param seed           fixes everything drawn
     * @param durationMillis the workload's length, ms; faults end 40% (at least 12 s) before it
     * @param nodes          the cluster's nodes
     * @param replicated     replication on: one long primary-from-ZooKeeper partition may be drawn
     * @param sessionMillis  the nodes' ZooKeeper session timeout, ms
     */
    public static FaultSchedule draw(long seed, long durationMillis, List<NodeId> nodes, boolean replicated,
                                     int sessionMillis) {
        Random r = new Random(seed);
        List<String> ds = new ArrayList<>();
        List<String> txnNodes = new ArrayList<>();
        for (NodeId n : nodes) {
            if (n.role() == Role.DS) {
                ds.add(n.toString());
            }
            if (n.role() == Role.DS || n.role() == Role.TC) {
                txnNodes.add(n.toString());
            }
        }
        List<Fault> out = new ArrayList<>();
        long t = 1_000 + r.nextInt(1_000);
        long end = durationMillis - Math.max(12_000, durationMillis * 2 / 5); // then dead nodes restart, recover
        long maxHold = Math.max(1_000, Math.min(4_000, sessionMillis / 2 - 500));
        boolean longDrawn = false;
        while (true) {
            Kind k = Kind.values()[r.nextInt(Kind.values().length)];
            long hold = 1_000 + (long) r.nextInt((int) (maxHold - 999));
            List<String> side;
            switch (k) {
                case ISOLATE, PAUSE -> side = List.of(txnNodes.get(r.nextInt(txnNodes.size())));
                case KILL -> side = List.of(ds.get(r.nextInt(ds.size())));
                case PRIMARY_FROM_ZK -> {
                    side = List.of(ds.get(r.nextInt(ds.size())));
                    if (replicated && !longDrawn && r.nextInt(3) == 0) {
                        hold = sessionMillis + 2_000L; // past the session: a backup is promoted
                        longDrawn = true;
                    }
                }
                default -> {
                    List<String> all = new ArrayList<>(txnNodes);
                    all.add(NetFabric.HOST);
                    java.util.Collections.shuffle(all, r);
                    side = List.copyOf(all.subList(0, all.size() / 2));
                }
            }
            if (t + hold > end) {
                break;
            }
            out.add(new Fault(t, k, side, hold));
            t += hold + 500 + r.nextInt(1_500);
        }
        return new FaultSchedule(seed, end, List.copyOf(out));
    }
}
