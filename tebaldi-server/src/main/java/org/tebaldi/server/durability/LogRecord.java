package org.tebaldi.server.durability;

import java.util.List;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * What a data server writes to its {@link LogStore} (dissertation §4.5.4). Records hold immutable keys and rows and
 * are encoded by {@link LogFormat} on the store's side, off the data server's thread.
 */
public sealed interface LogRecord {
    /**
     * An operation log: the transaction's write of {@code key} (its final value here; null deletes), with the
     * version's order key and the writer's write count for the key.
     */
    record Op(long txn, int index, Key key, long orderKey, int writeSeq, Row row) implements LogRecord {
    }

    /**
     * The precommit log, written when every CC passed validation here, before the vote goes back: the GCP epoch
     * it was written in, how many data servers the transaction wrote at (participants that log operations; 0 if it
     * did not write here: the record then only keeps the reads for the history), its type, how many operation logs
     * it has here, and — when the history is recorded — the reads it did here.
     */
    record Precommit(long txn, long epoch, int participants, int typeId, int ops, List<Read> reads)
            implements LogRecord {
    }

    /** A read, for the recorded history: {@code key}'s {@code writeSeq}-th write of {@code writer}. */
    record Read(Key key, long writer, int writeSeq) {
    }

    /** The coordinator committed the transaction with this global epoch id. */
    record Commit(long txn, long globalEpoch) implements LogRecord {
    }

    /** The coordinator aborted the transaction after its precommit log was written. */
    record Abort(long txn) implements LogRecord {
    }

    /** A row of the initial load (writer 0), or a version folded into the data by recovery. */
    record Data(Key key, long orderKey, long writer, Row row) implements LogRecord {
    }

    /** Every log record up to here is on disk: the GCP epoch persisted at this data server. */
    record Persisted(long epoch) implements LogRecord {
    }

    /**
     * The history of a transaction kept by recovery (only when the history is recorded): its type, its reads here
     * and its writes with their order keys.
     */
    record History(long txn, int typeId, List<Read> reads, List<Written> writes) implements LogRecord {
    }

    /** A write in a {@link History}. */
    record Written(Key key, int writeSeq, long orderKey) {
    }

    /**
     * Recovery round {@code round} decided here (step 2 applied to the data): cut {@code persisted}, new epochs from
     * {@code epochBase}; the log is deleted when the round finishes.
     */
    record Decision(long round, long persisted, long epochBase) implements LogRecord {
    }

    /** Recovery round {@code round} finished: the log is empty, epochs restart at {@code epochBase}. */
    record Finished(long round, long epochBase) implements LogRecord {
    }

    /** Deletes every operation, precommit, commit and abort log (recovery folded what survived into the data). */
    record ClearLog() implements LogRecord {
    }

    /**
     * An entry already encoded by {@link LogFormat} — what a primary ships to its backups under replication
     * ({@code server.replica}); a store puts it as is.
     */
    record Encoded(LogFormat.Cf cf, byte[] key, byte[] value) implements LogRecord {
    }
}
