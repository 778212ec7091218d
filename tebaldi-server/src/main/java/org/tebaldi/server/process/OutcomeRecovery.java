package org.tebaldi.server.process;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.txn.TxnIds;

/**
 * Reconstructs the outcomes a failed coordinator took with it (process mode, docs/cluster.md "Failures"). A transaction's
 * outcome is logged by its coordinator and — for commits — by every data server that applied the commit (and
 * for aborts decided when the coordinator failed, by the servers that aborted it). When a coordinator's process
 * was killed its log is lost, so each transaction of that coordinator that the surviving logs mention without any
 * outcome is recorded as aborted: no data server applied its commit, so none of its writes is visible, and a
 * committed reader of one of its versions is reported as an aborted read — the checker is not fooled into trusting
 * its writes. A transaction committed at one server but aborted at another (the two-phase-commit window without
 * a recovery log) shows up as conflicting outcomes, a record inconsistency.
 */
public final class OutcomeRecovery {
    private OutcomeRecovery() {
    }

    /**
     * The extra log to merge with {@code logs}: an aborted outcome for every transaction of a coordinator in
     * {@code failedCoordinators} that no log gives an outcome.
     */
    public static HistoryLog lostOutcomes(List<HistoryLog> logs, Set<Integer> failedCoordinators) {
        Set<Long> known = new HashSet<>();
        for (HistoryLog l : logs) {
            l.outcomes().forEach(o -> known.add(o.txn()));
        }
        Set<Long> lost = new HashSet<>();
        for (HistoryLog l : logs) {
            l.reads().forEach(r -> consider(r.reader(), known, failedCoordinators, lost));
            l.reads().forEach(r -> consider(r.writer(), known, failedCoordinators, lost));
            l.writes().forEach(w -> consider(w.writer(), known, failedCoordinators, lost));
            l.versionOrders().values().forEach(o -> {
                for (long t : o) {
                    consider(t, known, failedCoordinators, lost);
                }
            });
        }
        HistoryLog out = new HistoryLog();
        lost.stream().sorted().forEach(t -> out.outcome(t, false, null));
        return out;
    }

    private static void consider(long txn, Set<Long> known, Set<Integer> failed, Set<Long> lost) {
        if (txn != 0 && !known.contains(txn) && failed.contains(TxnIds.coordinator(txn))) {
            lost.add(txn);
        }
    }
}
