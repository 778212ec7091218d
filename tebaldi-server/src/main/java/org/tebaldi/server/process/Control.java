package org.tebaldi.server.process;

import java.util.List;
import java.util.Map;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.ControlMessage;

/**
 * The control plane of process mode between the runner's {@link ControlNode} and each node's
 * {@link ControlShell}: loading, counters (messages, replication), status, history and final-state collection, shutdown. Requests carry a
 * {@code reqId} echoed by replies; bulk answers come in chunks, the last one flagged. None of these is counted in
 * the message statistics ({@link ControlMessage}).
 */
public final class Control {
    private Control() {
    }

    /** Marks what a {@link ControlShell} handles itself instead of its node. */
    public interface Request extends ControlMessage {
    }

    /** Load committed initial rows into a data server (before transactions run). Answered by {@link Ack}. */
    public record LoadRows(long reqId, Key[] keys, Row[] rows) implements Request {
    }

    /** Done; {@code error} null on success. */
    public record Ack(long reqId, String error) implements ControlMessage {
    }

    /** Set the process's message counters to zero (end of warm-up). No reply. */
    public record ResetStats() implements Request {
    }

    /** Asks for a {@link Status}. */
    public record StatusQuery(long reqId) implements Request {
    }

    /**
     * A node's health and counters.
     *
     * @param failures      exceptions thrown by actor code so far
     * @param firstFailure  the first one, or null
     * @param messages      protocol messages sent by this process since the last reset, by class
     * @param dropped       messages its transport dropped
     * @param treeVersion   the version of the active tree this node last saw in ZooKeeper
     * @param live          transactions live at this coordinator or data server (0 for other roles): a commit
     *                      decided and answered may still be on its way to a data server while this is above 0
     */
    public record Status(long reqId, int failures, String firstFailure, Map<String, Long> messages, long dropped,
                         int treeVersion, int live) implements ControlMessage {
    }

    /** Asks a data server for its {@link ReplicationCounters} (docs/mechanisms.md "Replication"). */
    public record ReplicationQuery(long reqId) implements Request {
    }

    /**
     * A data server's replication counters since it started (all 0 on other nodes, without replication, and on a
     * promoted or restarted data server, which ships to no backups).
     *
     * @param shippedRecords     log records shipped to its backups
     * @param acknowledgedWrites writes its backups acknowledged, summed over the backups
     * @param waitedWrites       writes whose completion waited for the backups' acknowledgements
     * @param resent             unacknowledged writes shipped again
     * @param appliedRecords     records this server applied to the replicas it keeps of other partitions
     * @param innerHostWaits     votes that waited for the backups because locks were released before the vote
     *                           (also in waitedWrites)
     * @param backupReads        a coordinator's reads that a backup served ({@code reads: nearest}); 0 elsewhere
     * @param backupFallbacks    a coordinator's reads a backup refused, then served by the primary; 0 elsewhere
     * @param lagMicros          a data server's summed replica lag over the batches its views applied, µs
     * @param lagSamples         how many batches that sum covers
     */
    public record ReplicationCounters(long reqId, long shippedRecords, long acknowledgedWrites, long waitedWrites,
                                      long resent, long appliedRecords, long innerHostWaits, long backupReads,
                                      long backupFallbacks, long lagMicros, long lagSamples)
            implements ControlMessage {
    }

    /** Asks for the node's history ({@link HistoryChunk}s; version orders included for data servers). */
    public record CollectHistory(long reqId) implements Request {
    }

    /** Part of a node's history log. */
    public record HistoryChunk(long reqId, boolean last, List<HistoryLog.Read> reads, List<HistoryLog.Write> writes,
                               List<HistoryLog.Outcome> outcomes, Map<Key, long[]> versionOrders)
            implements ControlMessage {
    }

    /** Asks a data server for the latest committed row of every key ({@link RowsChunk}s). */
    public record CollectRows(long reqId) implements Request {
    }

    /** Part of a data server's final state. */
    public record RowsChunk(long reqId, boolean last, Key[] keys, Row[] rows) implements ControlMessage {
    }

    /** Stop the process (after the run). No reply: its membership znode disappears. */
    public record Shutdown() implements Request {
    }
}
