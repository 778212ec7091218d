package org.tebaldi.server.replica;

import java.util.List;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.server.durability.LogRecord;

/** Messages between a partition's primary data server and its backups (docs/mechanisms.md "Replication"). */
public final class ReplicaMessages {
    private ReplicaMessages() {
    }

    /**
     * Primary → backup: the {@code seq}-th write to partition {@code partition}'s log (1, 2, …), as encoded entries
     * ({@link LogRecord.Encoded}) and {@link LogRecord.ClearLog}s. A backup applies them in {@code seq} order and,
     * if {@code ack}, answers with an {@link Ack} once applied.
     */
    public record Ship(int partition, long seq, boolean ack, List<LogRecord> records) {
    }

    /** Backup → primary: every write of {@code partition} up to {@code seq} is in the backup's replica. */
    public record Ack(int partition, long seq) {
    }

    /**
     * A committed write in a {@link View}: {@code key}'s version written by {@code writer} (its {@code writeSeq}-th
     * write of the key), stamped {@code stamp} by the tree's root ({@link org.tebaldi.core.storage.Version#stamp}),
     * committed in the writer's global epoch {@code epoch}; {@code row} null for a delete.
     */
    public record ViewWrite(Key key, long stamp, long writer, int writeSeq, long epoch, Row row) {
    }

    /**
     * Primary → backup, reads from the nearest replica: the {@code seq}-th (1, 2, …) batch of partition
     * {@code partition}'s committed writes, then its watermark — every write the primary committed with a stamp at
     * or below {@code watermark} is in this batch or an earlier one. {@code oldestCommitMicros}: the primary's clock
     * when the batch's oldest write committed (µs; −1 if none), for the replica lag.
     */
    public record View(int partition, long seq, List<ViewWrite> writes, long watermark, long oldestCommitMicros) {
    }

    /**
     * Coordinator → a data server keeping a copy of {@code partition}: read {@code key} at snapshot bound
     * {@code snapshot} (the newest version stamped at or below it); answered with a {@link ReadReply}.
     */
    public record Read(long reqId, int partition, Key key, long snapshot) {
    }

    /**
     * The answer to a {@link Read}: {@code served} with the row (null: a delete) and its version (writer, write
     * sequence, the writer's epoch), or not served (watermark below the snapshot, versions pruned, no view): the
     * coordinator then reads at the primary.
     */
    public record ReadReply(long reqId, boolean served, Row row, long writer, int writeSeq, long epoch) {
    }
}
