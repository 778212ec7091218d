package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tebaldi.core.history.HistoryHandOver;
import org.tebaldi.core.history.HistoryLog;

/**
 * What a coordinator records for the history checker (docs/architecture.md, "Verification"): the outcomes, reads
 * and writes of its transactions, kept whole or streamed (handed over every period), and the commits recovery
 * retracted (dissertation §4.5.4). Coordinator thread, or any thread once the node stopped.
 */
final class TcHistory {
    /** Null if recording is off. */
    private HistoryLog log;
    private HistoryHandOver stream;
    private int source;
    private long periodMicros;
    private final Set<Long> retracted = new HashSet<>();
    /** Tasks to run after the next periodic hand-over ({@link #afterHandOver}). */
    private List<Runnable> afterHandOver = new ArrayList<>();

    TcHistory(boolean record) {
        this.log = record ? new HistoryLog() : null;
    }

    /** The log (null if recording is off). */
    HistoryLog log() {
        return log;
    }

    /** Streams the log to {@code stream} as node {@code source} every {@code periodMicros} µs (if recording). */
    void stream(HistoryHandOver stream, int source, long periodMicros) {
        if (log != null) {
            this.stream = stream;
            this.source = source;
            this.periodMicros = periodMicros;
        }
    }

    /** The coordinator started: when streaming, the hand-overs begin. */
    void start(TransactionCoordinator tc) {
        if (stream != null) {
            Runnable[] tick = new Runnable[1];
            tick[0] = () -> {
                handOver();
                List<Runnable> due = afterHandOver;
                afterHandOver = new ArrayList<>();
                due.forEach(Runnable::run);
                tc.schedule(periodMicros, tick[0]);
            };
            tc.schedule(periodMicros, tick[0]);
        }
    }

    /**
     * Runs {@code task} on the coordinator's thread once what it recorded so far was handed over: after the next
     * periodic hand-over when streaming, else right after the current event ({@code TcServices.afterHistoryHandOver}).
     */
    void afterHandOver(Runnable task, TransactionCoordinator tc) {
        if (stream == null) {
            tc.later(task);
        } else {
            afterHandOver.add(task);
        }
    }

    /** Hands the log over (when streaming) and starts a new one. */
    void handOver() {
        if (stream != null) {
            stream.handOver(source, () -> {
                HistoryLog l = log;
                log = new HistoryLog();
                return l;
            });
        }
    }

    /**
     * Committed transactions lost in recovery (dissertation §4.5.4: their epoch was not persisted everywhere): their
     * recorded outcome becomes an abort — none of their writes survived.
     */
    void retract(Set<Long> lost) {
        if (log != null) {
            retracted.addAll(lost);
            log.outcomes().replaceAll(o -> lost.contains(o.txn())
                    ? new HistoryLog.Outcome(o.txn(), false, o.type()) : o);
        }
    }

    /** Commits retracted by recovery rounds; recorded with the history only. */
    Set<Long> retracted() {
        return Collections.unmodifiableSet(retracted);
    }
}
