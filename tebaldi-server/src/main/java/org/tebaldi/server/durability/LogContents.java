package org.tebaldi.server.durability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What recovery's first step reads from a data server's store (dissertation §4.5.4), besides the data rows (which
 * are streamed in chunks): the last persisted GCP epoch, the transaction logs not yet folded into the data, the
 * kept history, and the state of the last recovery round.
 */
public final class LogContents {
    /** The log records of one transaction at this data server. */
    public static final class TxnLog {
        public final long txn;
        public LogRecord.Precommit precommit;
        public final List<LogRecord.Op> ops = new ArrayList<>(2);
        public LogRecord.Commit commit;
        public boolean aborted;

        TxnLog(long txn) {
            this.txn = txn;
        }
    }

    /** GCP epoch of the last {@link LogRecord.Persisted} record, or 0. */
    public long persisted;
    /** The last finished recovery round (0: none), and the epoch base it set. */
    public long round;
    public long epochBase;
    /** A recovery round decided here but not finished (its log is still there), or null. */
    public LogRecord.Decision pendingDecision;
    /** Transactions with log records, by id. */
    public final Map<Long, TxnLog> txns = new TreeMap<>();
    /** Histories kept by earlier recoveries (only with a recorded history). */
    public final List<LogRecord.History> histories = new ArrayList<>();

    /** The log of {@code txn}, created empty if absent. */
    public TxnLog txn(long txn) {
        return txns.computeIfAbsent(txn, TxnLog::new);
    }

    /** The largest epoch any record mentions (persisted, precommit or commit epochs, the epoch base). */
    public long maxEpoch() {
        long m = Math.max(persisted, epochBase);
        for (TxnLog t : txns.values()) {
            if (t.precommit != null) {
                m = Math.max(m, t.precommit.epoch());
            }
            if (t.commit != null) {
                m = Math.max(m, t.commit.globalEpoch());
            }
        }
        return m;
    }
}
