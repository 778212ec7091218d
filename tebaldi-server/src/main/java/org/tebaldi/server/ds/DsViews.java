package org.tebaldi.server.ds;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.replica.ReplicaMessages;
import org.tebaldi.server.replica.ReplicaViews;
import org.tebaldi.server.replica.ReplicationOptions;
import org.tebaldi.server.replica.ViewShipper;

/**
 * A data server's part in reads from the nearest replica ({@code replication.reads: nearest}; docs/mechanisms.md
 * "Replication"): the applied views it keeps of the partitions it backs up ({@link ReplicaViews}, answering the
 * coordinators' snapshot reads below their watermarks) and the shipper of its own partition's committed writes to
 * its backups' views ({@link ViewShipper}, watermarks from the root part's {@code replicaFloor}). Made only when the
 * option is on; the data server's thread only.
 */
final class DsViews {
    private final DataServer ds;
    private final ReplicaViews views;
    /** Null on a server that ships to no backups (a promoted or restarted one). */
    private final ViewShipper shipper;

    DsViews(DataServer ds, int index, ReplicationOptions r, boolean ships) {
        this.ds = ds;
        this.views = new ReplicaViews(ds::send, ds::schedule, ds::nowMicros,
                () -> ds.module().part(ds.module().config().tree().root()).replicaServeFloor());
        this.shipper = ships ? new ViewShipper(index, r.backupsOf(index, ds.config().dataServers()), ds::send,
                ds::schedule, ds::nowMicros, () -> ds.module().part(ds.module().config().tree().root()).replicaFloor())
                : null;
    }

    /** The views kept here (for the run's counters). */
    ReplicaViews views() {
        return views;
    }

    /** A primary's batch of committed writes for the view of its partition kept here. */
    void onView(ReplicaMessages.View v) {
        views.onView(v);
    }

    /** A coordinator's snapshot read of a partition this server keeps a view of. */
    void onRead(NodeId from, ReplicaMessages.Read rd) {
        views.onRead(from, rd);
    }

    /** The data server started: the shipper's ticks begin. */
    void start() {
        if (shipper != null) {
            shipper.start();
        }
    }

    /** A recovery round began: every view goes for good, and shipping stops. */
    void recoveryBegan() {
        views.dropAll();
        if (shipper != null) {
            shipper.stop();
        }
    }

    /** Data server {@code index} failed: every view goes for good; it gets no more batches. */
    void dataServerDown(int index) {
        views.dropAll();
        if (shipper != null) {
            shipper.nodeDown(index);
        }
    }

    /**
     * {@code t} committed here with global epoch {@code epoch}, its versions stamped: they leave for the backups'
     * views with the shipper's next tick.
     */
    void committed(DsTxnImpl t, long epoch) {
        if (shipper == null || t.writes.isEmpty()) {
            return;
        }
        int root = ds.module().config().tree().root().id();
        List<ReplicaMessages.ViewWrite> ws = new ArrayList<>(t.writes.size());
        for (DsTxnImpl.Written w : t.writes) {
            org.tebaldi.core.storage.Version v = w.version();
            ws.add(new ReplicaMessages.ViewWrite(w.key(), v.stamp(root), t.id(), v.writeSeq(), epoch, v.value()));
        }
        shipper.committed(ws);
    }
}
