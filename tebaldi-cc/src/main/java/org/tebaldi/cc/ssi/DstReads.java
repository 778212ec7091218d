package org.tebaldi.cc.ssi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.cc.ts.SnapshotStats;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.txn.AbortReason;

/**
 * SSI's data-server side of DST (Decentralized Scalar Timestamps, NSDI 2021, §3; {@code timestamps: dst} at an ssi
 * root): snapshot reads (RO2) — or the read-committed baseline — counted in {@link SnapshotStats}; the keys an
 * update transaction touched (RW1, RW2) and its bound at validation; GC by the server's clock ({@link DstTuples}).
 */
final class DstReads {
    /** Waits for a prepared writer, then runs the read again (SSI's {@code awaitPrepared}). */
    interface Awaiter {
        void await(DsTxn t, SsiDsPart.Snapshot st, OpContext op, Continuation k, DsTxn writer);
    }

    private final SsiScope s;
    final DstTuples tuples;
    /** DST's read-committed baseline ({@code roReads: read-committed}): read-only reads take the latest committed. */
    final boolean readCommitted;
    private final SnapshotStats stats = new SnapshotStats();

    DstReads(SsiScope scope, long stalenessMicros, boolean readCommitted) {
        this.s = scope;
        this.tuples = new DstTuples(scope.services, stalenessMicros);
        this.readCommitted = readCommitted;
    }

    /**
     * A snapshot read under DST (RO2, Fig 9's DEP_READ): claims the key at the read timestamp, so every writer that
     * prepares here later commits above it; then waits for a prepared writer whose bound here does not already put
     * its commit timestamp above the read timestamp (at most the one conflicting writer: 2PL and OCC children let
     * one writer of a key prepare at a time), and reads. Never aborts, except a snapshot already older than the
     * versions pruned here (a coordinator delayed beyond the staleness bound and {@link DstTuples#GC_SLACK_MICROS})
     * or a wait beyond the wait timeout (a failed writer's coordinator): both faults, not conflicts.
     */
    void execute(DsTxn t, SsiDsPart.Snapshot st, OpContext op, Continuation k, Awaiter awaiter) {
        if (readCommitted) {
            k.proceed(); // the baseline: no claim, no wait
            return;
        }
        if (tuples.belowGcFloor(st.startTs)) {
            k.abort(AbortReason.conflict("ssi/dst: snapshot " + st.startTs + " is older than versions pruned here"));
            return;
        }
        tuples.claim(op.key(), st.startTs);
        DsTxn writer = preparedBelow(t, st, op.chain());
        if (writer != null) {
            stats.blocked();
            awaiter.await(t, st, op, k, writer);
            return;
        }
        stats.read(st.startTs, s.services.nowMicros());
        k.proceed();
    }

    /** A prepared writer of the chain whose commit timestamp may fall at or below the read timestamp, or null. */
    private DsTxn preparedBelow(DsTxn t, SsiDsPart.Snapshot st, VersionChain chain) {
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (s.preparedOtherBatch(t, st, v)) {
                DsTxn w = s.services.txn(v.writer());
                if (w.state(s.level, SsiDsPart.Snapshot.class).bound <= st.startTs) {
                    return w;
                }
            }
        }
        return null;
    }

    /** RW1's input: an update transaction touched {@code op}'s key here (its newest stamp raises the key's ts). */
    void touched(SsiDsPart.Snapshot st, OpContext op) {
        if (st.keys == null) {
            st.keys = new ArrayList<>(4);
        }
        if (!st.keys.contains(op.key())) {
            st.keys.add(op.key());
            tuples.observe(op.key(), op.chain(), s.id);
        }
    }

    /** RW1 at validation: the transaction's bound here (after its in-group dependencies committed here). */
    long bound(SsiDsPart.Snapshot st) {
        st.bound = Math.max(st.started, tuples.bound(st.keys == null ? List.of() : st.keys));
        return st.bound;
    }

    /** This part's snapshot-read counters ({@link SnapshotStats#counters}). */
    Map<String, Long> counters() {
        return stats.counters();
    }
}
