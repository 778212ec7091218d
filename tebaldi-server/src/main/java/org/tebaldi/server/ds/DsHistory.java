package org.tebaldi.server.ds;

import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.storage.MultiVersionStore;
import org.tebaldi.core.storage.Version;

/**
 * What a data server records for the history checker (docs/architecture.md, "Verification"): every read (which
 * writer's version, which of its writes), every write, every outcome decided here, and at the end each key's
 * committed version order — with the writers garbage collection pruned first. Inactive when the cluster does not
 * record its history. Data-server thread only.
 */
final class DsHistory {
    private HistoryLog log;

    DsHistory(boolean recording) {
        this.log = recording ? new HistoryLog() : null;
    }

    boolean recording() {
        return log != null;
    }

    /** Forgets the pruned writers (the store is about to be rebuilt from the log, which remembers them). */
    void clearPruned() {
        if (log != null) {
            log.clearPruned();
        }
    }

    /** A new, empty log (recovery rebuilds the survivors' history); returns it. */
    HistoryLog fresh() {
        log = new HistoryLog();
        return log;
    }

    void outcome(DsTxnImpl t, boolean committed, String type) {
        if (log != null) {
            log.outcome(t.id(), committed, type);
        }
    }

    /** {@code t} read the {@code seq}-th write of {@code writer} to {@code key} (also kept for its precommit log). */
    void read(DsTxnImpl t, Key key, long writer, int seq) {
        if (log != null) {
            log.read(t.id(), key, writer, seq);
            if (t.loggedReads != null) {
                t.loggedReads.add(new org.tebaldi.server.durability.LogRecord.Read(key, writer, seq));
            }
        }
    }

    /** Garbage collection pruned {@code writer}'s committed version of {@code key} (oldest first per key). */
    void pruned(Key key, long writer) {
        if (log != null) {
            log.pruned(key, writer);
        }
    }

    void write(DsTxnImpl t, Key key, int seq) {
        if (log != null) {
            log.write(t.id(), key, seq);
        }
    }

    /**
     * The recorded history with each written key's final committed version order (writer 0 first when the key
     * did not exist at load time); null if recording is off. Call after the node stopped.
     */
    HistoryLog export(MultiVersionStore store) {
        if (log == null) {
            return null;
        }
        java.util.Map<Key, long[]> prunedOrders = log.prunedOrders();
        store.forEach((key, chain) -> {
            long[] order = chain.committedOrder();
            long[] pruned = prunedOrders.get(key);
            if (pruned != null) {
                long[] all = new long[pruned.length + order.length];
                System.arraycopy(pruned, 0, all, 0, pruned.length);
                System.arraycopy(order, 0, all, pruned.length, order.length);
                order = all;
            }
            if (order.length == 1 && order[0] == Version.INITIAL_WRITER) {
                return;
            }
            if (order.length == 0 || order[0] != Version.INITIAL_WRITER) {
                long[] withInit = new long[order.length + 1];
                System.arraycopy(order, 0, withInit, 1, order.length);
                order = withInit;
            }
            log.versionOrder(key, order);
        });
        return log;
    }
}
