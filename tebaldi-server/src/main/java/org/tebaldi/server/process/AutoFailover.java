package org.tebaldi.server.process;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.server.replica.ReplicationOptions;
import org.tebaldi.server.zk.Failovers;
import org.tebaldi.server.zk.Membership;

/**
 * Automatic promotion of a backup in process mode (docs/mechanisms.md "Replication", Promotion;
 * {@code cluster.replication.failover: auto}): when a data server's membership ends in ZooKeeper (its process
 * exited and was evicted, or its session expired) and replication is on, the first of its backups that is a member
 * and never left the membership (a backup that restarted keeps no current replica: its primary stopped shipping
 * to it) is chosen, the decision is <em>created</em> once in ZooKeeper ({@link Failovers}) — a second observer of
 * the same failure finds it and does nothing — and the observer that created it carries it out through its
 * {@link Launcher}: the runner that launched the nodes starts the data server again with {@code --promote-from
 * host}; with external nodes it waits for a {@code tebaldi node} for the partition started by an operator or a
 * supervisor, which reads the decision and opens the replica. Each promotion is recorded with its take-over
 * time ({@link #promotions}). A partition promoted once is not promoted again (the promoted server ships to no
 * backups). Decisions run one at a time on a thread of their own; membership events only hand them on.
 */
public final class AutoFailover implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AutoFailover.class);

    /**
     * Starts data server {@code ds} from {@code host}'s replica (or, with external nodes, waits for an operator or
     * a supervisor to start it: it reads the decision) and returns once it registered.
     */
    @FunctionalInterface
    public interface Launcher {
        /** @throws IllegalStateException if it cannot start or does not register in time */
        void promote(NodeId ds, int host) throws InterruptedException;
    }

    /**
     * One promotion carried out here.
     *
     * @param partition  the data server whose primary died
     * @param host       the data server whose replica was promoted
     * @param atMillis   when its membership loss was seen, ms after this failover service started (the cluster's start)
     * @param tookMillis from then until the promoted server registered in ZooKeeper, ms (it then recovers — a
     *                   recovery round — before it serves)
     * @param by         who decided ({@code runner}, {@code operator})
     */
    public record Promotion(int partition, int host, long atMillis, long tookMillis, String by) {
    }

    private final ReplicationOptions replication;
    private final int dataServers;
    private final Membership membership;
    private final Failovers decisions;
    private final boolean auto;
    private final Launcher launcher;
    private final long startNanos = System.nanoTime();
    private final Set<Integer> everDown = ConcurrentHashMap.newKeySet();
    private final Map<Integer, Long> downAt = new ConcurrentHashMap<>();
    private final List<Promotion> promotions = new CopyOnWriteArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tebaldi-failover");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;

    /**
     * @param replication the cluster's replication (nothing happens when it is off)
     * @param dataServers data servers of the cluster
     * @param membership  the observer's view of the members
     * @param decisions   the decisions of this cluster incarnation in ZooKeeper
     * @param auto        {@code failover: auto}; false ({@code manual}): only {@link #promote} promotes
     * @param launcher    carries a decision out
     */
    public AutoFailover(ReplicationOptions replication, int dataServers, Membership membership, Failovers decisions,
                        boolean auto, Launcher launcher) {
        this.replication = replication;
        this.dataServers = dataServers;
        this.membership = membership;
        this.decisions = decisions;
        this.auto = auto;
        this.launcher = launcher;
    }

    /** Node {@code n}'s membership ended (call from the membership listener: returns at once). */
    public void down(NodeId n) {
        if (n.role() != Role.DS || closed) {
            return;
        }
        long at = System.nanoTime();
        everDown.add(n.index());
        downAt.put(n.index(), at);
        if (auto && replication.enabled()) {
            worker.execute(() -> failOver(n.index(), at));
        }
    }

    /**
     * The first backup of {@code partition} that is a member now and never left: the one to promote; -1 if none.
     */
    public int promotable(int partition) {
        if (!replication.enabled()) {
            return -1;
        }
        for (int b : replication.backupsOf(partition, dataServers)) {
            if (!everDown.contains(b) && membership.addressOf(NodeId.ds(b)) != null) {
                return b;
            }
        }
        return -1;
    }

    private void failOver(int partition, long atNanos) {
        if (closed) {
            return;
        }
        try {
            int host = promotable(partition);
            if (host < 0) {
                LOG.warn("ds{} failed and no live backup keeps a current replica of it (backups {}): the partition "
                        + "is lost until ds{} restarts from its own store", partition,
                        java.util.Arrays.toString(replication.backupsOf(partition, dataServers)), partition);
                return;
            }
            Failovers.Outcome o = decisions.decide(partition, host, "runner");
            if (!o.ours()) {
                LOG.info("ds{} failed: its failover was decided already ({} promoted ds{}'s replica); not promoting "
                        + "again", partition, o.decision().by(), o.decision().host());
                return;
            }
            carryOut(partition, host, atNanos, "runner");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (!closed) {
                errors.add("promoting a backup of ds" + partition + " failed: " + e.getMessage());
                LOG.error("promoting a backup of ds{} failed", partition, e);
            }
        }
    }

    /**
     * Promotes {@code host}'s replica of {@code partition} now (an operator's decision, e.g. under {@code failover:
     * manual}): records the decision and carries it out as an automatic one is.
     *
     * @throws IllegalStateException if the partition's failover was decided already, {@code host} keeps no replica
     *                               of it or is not a member that never left, or the promoted server does not start
     */
    public void promote(int partition, int host) throws InterruptedException {
        boolean backup = false;
        for (int b : replication.backupsOf(partition, dataServers)) {
            backup |= b == host;
        }
        if (!backup) {
            throw new IllegalStateException("ds" + host + " keeps no replica of ds" + partition + " (its backups: "
                    + java.util.Arrays.toString(replication.backupsOf(partition, dataServers)) + ")");
        }
        if (everDown.contains(host) || membership.addressOf(NodeId.ds(host)) == null) {
            int other = promotable(partition);
            throw new IllegalStateException("ds" + host + " is not running or left the membership since the cluster "
                    + "started: its replica of ds" + partition + " may miss writes; "
                    + (other >= 0 ? "promote ds" + other + " instead" : "no backup of ds" + partition
                    + " keeps a current replica"));
        }
        Failovers.Outcome o = decisions.decide(partition, host, "operator");
        if (!o.ours()) {
            throw new IllegalStateException("the failover of ds" + partition + " was decided already by "
                    + o.decision().by() + " (ds" + o.decision().host() + "'s replica); it is not promoted twice");
        }
        carryOut(partition, host, downAt.getOrDefault(partition, System.nanoTime()), "operator");
    }

    private void carryOut(int partition, int host, long atNanos, String by) throws InterruptedException {
        NodeId ds = NodeId.ds(partition);
        LOG.info("ds{} failed: promoting the replica kept by ds{} (decided by {}, recorded in ZooKeeper)", partition,
                host, by);
        launcher.promote(ds, host);
        long took = (System.nanoTime() - atNanos) / 1_000_000;
        promotions.add(new Promotion(partition, host, (atNanos - startNanos) / 1_000_000, took, by));
        decisions.completed(partition, took);
        LOG.info("ds{}: ds{}'s replica took over in {} ms", partition, host, took);
    }

    /**
     * Waits until every membership loss reported so far was decided (and, where ours, carried out).
     *
     * @return false if {@code timeoutMillis} ms passed first
     */
    public boolean awaitIdle(long timeoutMillis) throws InterruptedException {
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        try {
            worker.execute(done::countDown);
        } catch (java.util.concurrent.RejectedExecutionException closedAlready) {
            return true;
        }
        return done.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** The promotions carried out here so far, in order. */
    public List<Promotion> promotions() {
        return List.copyOf(promotions);
    }

    /** Why automatic promotions failed (empty if none did). */
    public List<String> errors() {
        return List.copyOf(errors);
    }

    /** Stops deciding (the cluster is closing); a promotion under way is interrupted. Idempotent. */
    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
    }
}
