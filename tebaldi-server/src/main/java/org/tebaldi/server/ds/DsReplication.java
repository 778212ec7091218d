package org.tebaldi.server.ds;

import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.server.durability.LogStore;
import org.tebaldi.server.node.Handlers;
import org.tebaldi.server.replica.BackupReplicas;
import org.tebaldi.server.replica.ReplicaMessages;
import org.tebaldi.server.replica.ReplicaViews;
import org.tebaldi.server.replica.ReplicatedLogStore;
import org.tebaldi.server.replica.ReplicationOptions;

/**
 * Replication as a data server's feature (docs/mechanisms.md "Replication"; on when {@code cluster.replication
 * .factor >= 2}): the server ships its log to its backups ({@link ReplicatedLogStore}, unless it was promoted or
 * restarted), keeps the replicas of its neighbours ({@link BackupReplicas}), and with {@code reads: nearest} keeps
 * the applied views of the partitions it backs up and ships its own committed writes to theirs ({@link DsViews}).
 * Points: its messages, start (shipping begins), node down (a failed data server's replicas and views close),
 * after commit (the versions leave for the views), before an epoch is prepared (an epoch commits only once
 * replicated, COCO §4), recovery began (views drop), close. Without durability (no log to ship) it only refuses
 * nearest reads. Data-server thread only, except the counters' getters.
 */
public final class DsReplication implements DsFeature {
    private final DataServer ds;
    /** Null on a promoted or restarted server, or without durability. */
    private final ReplicatedLogStore replicated;
    /** Null without durability. */
    private final BackupReplicas backups;
    /** Null unless {@code reads: nearest} (and durability). */
    private final DsViews views;

    private DsReplication(DataServer ds, ReplicatedLogStore replicated, BackupReplicas backups, DsViews views) {
        this.ds = ds;
        this.replicated = replicated;
        this.backups = backups;
        this.views = views;
    }

    /** The feature without a log to ship (durability off): nearest reads are refused. */
    static DsReplication off(DataServer ds) {
        return new DsReplication(ds, null, null, null);
    }

    /**
     * The feature over log store {@code st} of server {@code ds}: wraps it into a {@link ReplicatedLogStore} unless
     * the server was promoted ({@code promoted}) or restarted (the store held data).
     *
     * @param toSelf runs a store callback on the server's thread
     */
    static DsReplication open(DataServer ds, LogStore st, boolean promoted, java.util.concurrent.Executor toSelf) {
        org.tebaldi.server.node.ClusterConfig cfg = ds.config();
        ReplicationOptions r = cfg.replication();
        int index = ds.dsIndex();
        ReplicatedLogStore rs = promoted || st.hadData() ? null : new ReplicatedLogStore(st, index, r.mode(),
                r.backupsOf(index, cfg.dataServers()), cfg.db().catalog(), ds::send, ds::schedule);
        java.nio.file.Path dir = cfg.durability().dir();
        BackupReplicas b = new BackupReplicas(index, r.stores() != null ? r.stores()
                : dir == null ? ReplicationOptions.memory() : ReplicationOptions.rocksDb(dir),
                cfg.db().catalog(), toSelf, ds::send);
        DsViews v = null;
        if (r.nearestReads()) {
            v = new DsViews(ds, index, r, rs != null);
            b.onLoadRows(v.views()::seed);
        }
        return new DsReplication(ds, rs, b, v);
    }

    /** The store the server's durability writes: the replicated log if this server ships, else {@code st}. */
    LogStore wrap(LogStore st) {
        return replicated != null ? replicated : st;
    }

    @Override
    public void register(Handlers handlers) {
        handlers.on(ReplicaMessages.Ship.class, (from, sh) -> {
            if (backups != null) {
                backups.onShip(sh);
            }
        }).on(ReplicaMessages.View.class, (from, v) -> {
            if (views != null) {
                views.onView(v);
            }
        }).on(ReplicaMessages.Read.class, (from, rd) -> {
            if (views != null) {
                views.onRead(from, rd);
            } else { // not kept here: the coordinator reads at the primary
                ds.send(from, new ReplicaMessages.ReadReply(rd.reqId(), false, null, 0, 1, 0));
            }
        }).on(ReplicaMessages.Ack.class, (from, a) -> {
            if (replicated != null && a.partition() == ds.dsIndex()) {
                replicated.onAck(from.index(), a.seq());
            }
        });
    }

    @Override
    public void start() {
        if (replicated != null) {
            replicated.start();
        }
        if (views != null) {
            views.start();
        }
    }

    @Override
    public void nodeDown(NodeDown d) {
        if (d.node().role() != Role.DS) {
            return;
        }
        if (replicated != null) {
            replicated.nodeDown(d.node().index());
        }
        if (backups != null) {
            backups.primaryDown(d.node().index());
        }
        if (views != null) {
            views.dataServerDown(d.node().index());
        }
    }

    @Override
    public void afterCommit(DsTxnImpl t, long epoch) {
        if (views != null) {
            views.committed(t, epoch);
        }
    }

    @Override
    public void beforeEpochPrepared(long epoch, Runnable ready) {
        if (replicated != null) {
            replicated.afterReplicated(ready);
        } else {
            ready.run();
        }
    }

    @Override
    public void recoveryBegan() {
        if (views != null) {
            views.recoveryBegan();
        }
    }

    @Override
    public void close() {
        if (backups != null) {
            backups.close();
        }
    }

    /** This partition's replicated log (null if this server ships to no backups). */
    public ReplicatedLogStore replicatedLog() {
        return replicated;
    }

    /** The backups this server keeps of other partitions (null without durability). */
    public BackupReplicas backupReplicas() {
        return backups;
    }

    /** The applied views kept here for reads from the nearest replica (null unless {@code reads: nearest}). */
    public ReplicaViews replicaViews() {
        return views == null ? null : views.views();
    }
}
