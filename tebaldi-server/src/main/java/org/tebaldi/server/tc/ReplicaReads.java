package org.tebaldi.server.tc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.OpKind;
import org.tebaldi.server.replica.ReplicaMessages;
import org.tebaldi.server.replica.ReplicationOptions;

/**
 * Reads from the nearest replica at the coordinator (docs/mechanisms.md "Replication", {@code
 * cluster.replication.reads: nearest}): a plain read of a read-only transaction whose root gives a snapshot bound
 * ({@code TcPart.replicaSnapshot}; SSI's read-only snapshots under the root optimization, GTS or DST) goes to the
 * nearest copy of its partition — the data server with this coordinator's index (modulo the number of data
 * servers: coordinator i and data server i share a host in the embedded cluster's and the process launcher's
 * layouts) when it keeps a backup of the partition; the primary otherwise, where the read takes the usual path. A
 * backup's answer is recorded in the history as a data server records a read, and the reader's epoch is raised to
 * the writer's, so that a recovery round that retracts the writer retracts the reader too; a refusal (watermark
 * below the snapshot after a short wait, pruned or absent version, a snapshot too old, a failure) sends the read
 * to the primary, and the transaction's later reads go to the primaries directly (a refusal mostly means the
 * snapshot is too old or the backup lags, which its next reads would meet too).
 * Coordinator thread only.
 */
final class ReplicaReads {
    private record Pending(TcTxnImpl t, OpBatch b, int i, Op op) {
    }

    private final TransactionCoordinator tc;
    private final OpExecutor executor;
    private final Map<Long, Pending> pending = new HashMap<>();
    private volatile long served;
    private volatile long fallbacks;

    ReplicaReads(TransactionCoordinator tc, OpExecutor executor) {
        this.tc = tc;
        this.executor = executor;
    }

    /**
     * Sends {@code op} (operation {@code i} of {@code b}, past the TC parts) to the nearest copy of its partition if
     * that is a backup and the transaction's root allows it; returns false when it must take the usual path.
     */
    boolean tryBackup(TcTxnImpl t, OpBatch b, int i, Op op) {
        ReplicationOptions r = tc.config().replication();
        if (!r.nearestReads() || t.backupRefused || op.kind() != OpKind.READ
                || tc.database().catalog().table(op.key().table()).replicated()) {
            return false;
        }
        int n = tc.config().dataServers();
        int p = tc.partitionOf(op.key());
        int near = tc.tcIndex() % n;
        if (near == p || !r.holds(near, p, n) || tc.failures().dataServerDown(near)) {
            return false;
        }
        long s = tc.module().replicaSnapshot(t);
        if (s == Long.MIN_VALUE) {
            return false;
        }
        long req = tc.newRequestId();
        pending.put(req, new Pending(t, b, i, op));
        t.awaiting++;
        b.inFlight++;
        tc.sendMessage(NodeId.ds(near), new ReplicaMessages.Read(req, p, op.key(), s));
        return true;
    }

    /** A backup's answer. */
    void onReply(ReplicaMessages.ReadReply r) {
        Pending q = pending.remove(r.reqId());
        if (q == null) {
            return;
        }
        TcTxnImpl t = q.t();
        if (tc.live(t.id()) != t || t.status == TcTxnImpl.Status.DONE || t.batch != q.b()) {
            return;
        }
        t.awaiting--;
        q.b().inFlight--;
        if (!r.served()) {
            fallbacks++;
            t.backupRefused = true;
            executor.toPrimary(t, q.b(), q.i());
            return;
        }
        served++;
        t.epoch = Math.max(t.epoch, r.epoch());
        if (tc.history() != null) {
            if (r.writer() != org.tebaldi.core.storage.Version.INITIAL_WRITER) {
                // the write again, before the read, as for a read served at the coordinator (OpExecutor.servedHere)
                tc.history().copy(r.writer(), q.op().key(), r.writeSeq());
            }
            tc.history().read(t.id(), q.op().key(), r.writer(), r.writeSeq());
        }
        q.b().results[q.i()] = r.row();
        executor.servedElsewhere(t, q.b());
    }

    /** Reads a backup served for this coordinator so far. */
    long served() {
        return served;
    }

    /** Reads a backup refused, then sent to the primary, so far. */
    long fallbacks() {
        return fallbacks;
    }
}
