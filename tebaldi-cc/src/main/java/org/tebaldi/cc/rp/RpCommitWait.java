package org.tebaldi.cc.rp;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.TimedWait;
import org.tebaldi.core.txn.AbortReason;

/**
 * RP's validation at a data server (dissertation §4.4.2: "the validation phase delays a transaction's commit until
 * transactions in its dependency set have committed"): waits until every dependency reported here at this node's
 * level or below has finished, looking again after each finish — a predecessor that aborts hands its own
 * predecessors on ({@link RpDsPart}), which then join the wait. Each wait is a blocking event for the profiler; a
 * wait longer than {@link DsServices#waitTimeoutMicros()} aborts (waits of different mechanisms may form a cycle).
 */
final class RpCommitWait {
    private final DsServices s;
    private final DsTxn t;
    private final int level;
    private final Continuation k;
    private final long since;
    private TimedWait timer;
    private int waiting;

    private RpCommitWait(DsServices s, DsTxn t, int level, Continuation k) {
        this.s = s;
        this.t = t;
        this.level = level;
        this.k = k;
        this.since = s.nowMicros();
    }

    /** Proceeds {@code k} once no dependency of {@code t} at a level ≥ {@code level} is unfinished here. */
    static void await(DsServices s, DsTxn t, int level, Continuation k) {
        new RpCommitWait(s, t, level, k).check();
    }

    private void check() {
        List<DsTxn> pending = new ArrayList<>(0);
        for (DsTxn.Dependency d : t.dependencies()) {
            if (d.level() >= level && !d.on().finished() && !pending.contains(d.on())) {
                pending.add(d.on());
            }
        }
        if (pending.isEmpty()) {
            if (timer == null || timer.complete()) {
                k.proceed();
            }
            return;
        }
        if (timer == null) {
            timer = s.awaitOrTimeout(s.waitTimeoutMicros(), () -> k.abort(AbortReason.conflict(
                    "commit-dependency wait timed out after " + s.waitTimeoutMicros() / 1000
                            + " ms (waits of different mechanisms may form a cycle)")));
        }
        waiting = pending.size();
        for (DsTxn dep : pending) {
            s.awaitFinish(dep, committed -> {
                BlockingSink sink = s.blocking();
                if (sink != null) {
                    sink.blocked(t.id(), t.typeId(), dep.id(), dep.typeId(), since, s.nowMicros());
                }
                if (--waiting == 0 && !timer.over()) {
                    check();
                }
            });
        }
    }
}
