package org.tebaldi.bench.burn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.history.HistoryStream;
import org.tebaldi.core.history.ViolationType;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.server.cluster.Cluster;

/**
 * The streamed, bounded-memory history check beside a burn run ({@code burn --streamed}; docs/architecture.md,
 * "Verification"): every node hands its records over every {@value #PERIOD_MICROS} virtual µs and the
 * {@code IncrementalChecker} adds and prunes as often, as in a {@code verify} run of {@code tebaldi run} or
 * {@code tebaldi tune}. Every chunk is also collected whole, each key's version order rebuilt from its final
 * versions, for the run's batch check. Two checks of its own: once the cluster is quiet, no transaction without an
 * outcome is held (it would pin every transaction that depends on it for the rest of a long run), and the streamed
 * verdict agrees with the batch one. Only for scenarios whose history the streamed check can follow
 * ({@link #applies}).
 */
final class StreamedHistory {
    /** How often the nodes hand over and the check prunes, virtual µs (as {@code ReconfigurationSimTest}). */
    static final long PERIOD_MICROS = 2_000;

    private final Cluster cluster;
    private final HistoryStream stream;
    private final HistoryLog all = new HistoryLog();
    private final Map<Key, List<Long>> orders = new LinkedHashMap<>();
    private CheckResult streamed;

    /**
     * Whether the streamed check can follow {@code s}: not with a cluster crash or a data-server restart (recovery
     * rewrites the history) nor a coordinator crash (its records since its last hand-over are lost, and it hands
     * over nothing more, so nothing would become complete).
     */
    static boolean applies(Scenario s) {
        return s.faults(FaultKind.CLUSTER_CRASH).isEmpty() && s.faults(FaultKind.DS_RESTART).isEmpty()
                && s.faults(FaultKind.COORDINATOR_CRASH).isEmpty();
    }

    /** Streams {@code cluster}'s history (call before it starts) and checks it every period on {@code sim}. */
    StreamedHistory(Cluster cluster, SimulatedRuntime sim) {
        this.cluster = cluster;
        this.stream = cluster.streamHistory(PERIOD_MICROS).listen((source, chunk) -> collect(chunk));
        Runnable[] pass = new Runnable[1];
        pass[0] = () -> {
            stream.check();
            sim.at(sim.nowMicros() + PERIOD_MICROS, pass[0]);
        };
        sim.at(PERIOD_MICROS, pass[0]);
    }

    private void collect(HistoryLog chunk) {
        chunk.outcomes().forEach(o -> all.outcome(o.txn(), o.committed(), o.type()));
        chunk.writes().forEach(w -> all.write(w.writer(), w.key(), w.writeSeq()));
        chunk.copies().forEach(w -> all.copy(w.writer(), w.key(), w.writeSeq()));
        chunk.reads().forEach(r -> all.read(r.reader(), r.key(), r.writer(), r.writeSeq()));
        chunk.finals().forEach(f -> {
            List<Long> o = orders.computeIfAbsent(f.key(), k -> new ArrayList<>(List.of(0L)));
            if (f.writer() != 0L) {
                o.add(f.writer());
            }
        });
    }

    /**
     * The cluster is quiet (nothing live, passes ran since): null if the check holds no transaction without an
     * outcome, else what it holds.
     */
    String heldOnceQuiet() {
        return stream.heldWithoutOutcome() == 0 ? null
                : "the streamed check holds transactions without an outcome once the cluster is quiet: "
                + stream.describeHeld();
    }

    /**
     * Ends the stream (the last hand-overs, every remaining committed version) and returns the whole history for
     * the batch check, with the streamed verdict kept for {@link #disagreement}.
     */
    List<HistoryLog> finish() {
        cluster.finishHistoryStream();
        try {
            streamed = stream.finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        orders.forEach((k, o) -> all.versionOrder(k, o.stream().mapToLong(Long::longValue).toArray()));
        return new ArrayList<>(List.of(all));
    }

    /** After {@link #finish}: null if the streamed verdict is the batch one's ({@code batch}), else how not. */
    String disagreement(CheckResult batch) {
        boolean same = batch.serializable() == streamed.serializable() && batch.committed() == streamed.committed()
                && batch.unfinished() == streamed.unfinished();
        for (ViolationType t : ViolationType.values()) {
            same &= batch.violationCount(t) == streamed.violationCount(t);
        }
        return same ? null : "the streamed check disagrees with the batch check: streamed " + streamed.summary(3)
                + "; batch " + batch.summary(3);
    }
}
