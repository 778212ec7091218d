package org.tebaldi.core.cc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.txn.AbortReason;

/**
 * The commit-dependency wait shared by parents that adopt their children's ordering (dissertation §4.2.2
 * "adopt"; 2PL's nexus lock release order §3.3.2, RP's and SSI's/TSO's "commit after in-group dependencies
 * commit" §4.4): at validation, wait until every dependency reported by a level below {@code depth} has finished
 * at this data server. Each wait is reported to the profiler as a blocking event; a wait longer than
 * {@link CcServices#waitTimeoutMicros()} aborts the transaction.
 */
public final class DependencyWaits {
    private DependencyWaits() {
    }

    /**
     * Proceeds {@code k} once every not-yet-finished dependency of {@code t} with {@code level > depth} finished
     * here (right away if there is none).
     */
    public static void awaitLowerLevels(DsServices s, DsTxn t, int depth, Continuation k) {
        awaitLevels(s, t, depth + 1, Integer.MAX_VALUE, k);
    }

    /** Like {@link #awaitLowerLevels} for dependencies with {@code fromLevel <= level <= toLevel}. */
    public static void awaitLevels(DsServices s, DsTxn t, int fromLevel, int toLevel, Continuation k) {
        List<DsTxn> pending = new ArrayList<>(0);
        for (DsTxn.Dependency d : t.dependencies()) {
            if (d.level() >= fromLevel && d.level() <= toLevel && !d.on().finished() && !pending.contains(d.on())) {
                pending.add(d.on());
            }
        }
        if (pending.isEmpty()) {
            k.proceed();
            return;
        }
        int[] left = {pending.size()};
        long since = s.nowMicros();
        TimedWait wait = s.awaitOrTimeout(s.waitTimeoutMicros(), () -> k.abort(AbortReason.conflict(
                "commit-dependency wait timed out after " + s.waitTimeoutMicros() / 1000
                        + " ms (waits of different mechanisms may form a cycle)")));
        for (DsTxn dep : pending) {
            s.awaitFinish(dep, committed -> {
                BlockingSink sink = s.blocking();
                if (sink != null) {
                    sink.blocked(t.id(), t.typeId(), dep.id(), dep.typeId(), since, s.nowMicros());
                }
                if (--left[0] == 0 && wait.complete()) {
                    k.proceed();
                }
            });
        }
    }
}
