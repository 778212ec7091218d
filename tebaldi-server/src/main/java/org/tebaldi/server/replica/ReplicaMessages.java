package org.tebaldi.server.replica;

import java.util.List;
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
}
