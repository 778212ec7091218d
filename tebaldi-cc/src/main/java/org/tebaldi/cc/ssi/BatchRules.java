package org.tebaldi.cc.ssi;

import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.runtime.cost.HandlerUnits;
import org.tebaldi.core.service.TsClient;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;

/**
 * SSI's rules between batches (dissertation §4.4.3), for general mode and inner SSI: first updater wins, snapshot
 * reads that must not skip a prepared writer, and the anti-dependencies between batches — reported to the TC for
 * the root's pivot check, or, for an inner node, avoided by dooming the acting transaction (docs/mechanisms.md,
 * "SSI"). Keeps the read marks and prunes them by the timestamp service's watermark.
 */
final class BatchRules {
    /** The handler kind of read-mark pruning ({@link HandlerUnits#kind}). */
    static final String KIND = "read-marks";
    private final SsiScope s;
    private final TsClient ts;
    private final long gcMicros;
    private final ReadMarks marks = new ReadMarks();
    private boolean gcScheduled;

    /** @param gcMicros how often read marks are pruned, µs */
    BatchRules(SsiScope scope, TsClient ts, long gcMicros) {
        this.s = scope;
        this.ts = ts;
        this.gcMicros = gcMicros;
    }

    /** First updater wins, when the write executes: null, or why {@code t} must abort. */
    String writeConflict(DsTxn t, SsiDsPart.Snapshot st, OpContext op) {
        VersionChain chain = op.chain();
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (!s.inSubtree(v) || s.sameBatch(t, st, v)) {
                continue;
            }
            if (!v.committed() || v.stamp(s.id) > st.startTs) {
                return "ssi: write-write conflict on " + op.key() + " with a concurrent transaction of another batch"
                        + " (first updater wins)";
            }
        }
        return null;
    }

    /** A snapshot read must not skip a prepared writer of another batch (its commit timestamp may be lower). */
    void recheckSnapshot(DsTxn t, SsiDsPart.Snapshot st, OpContext op) {
        VersionChain chain = op.chain();
        int from = op.chosen() == null ? 0 : chain.indexOf(op.chosen()) + 1;
        for (int i = from; i < chain.size(); i++) {
            if (s.preparedOtherBatch(t, st, chain.get(i))) {
                t.doom("ssi: a writer of " + op.key() + " prepared while the snapshot read waited below");
                return;
            }
        }
    }

    /** First updater wins, checked again at the time the version is installed. */
    void recheckWriteWrite(DsTxn t, SsiDsPart.Snapshot st, OpContext op, Version mine) {
        VersionChain chain = op.chain();
        for (int i = chain.indexOf(mine) - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (s.inSubtree(v) && !s.sameBatch(t, st, v) && (!v.committed() || v.stamp(s.id) > st.startTs)) {
                t.doom("ssi: write-write conflict on " + op.key() + " with a concurrent transaction of another batch"
                        + " (found when the write was applied)");
                return;
            }
        }
    }

    /** A read that misses newer versions of other batches: an anti-dependency per version; leaves a read mark. */
    void afterRead(DsTxn t, SsiDsPart.Snapshot st, OpContext op) {
        VersionChain chain = op.chain();
        int from = op.chosen() == null ? 0 : chain.indexOf(op.chosen()) + 1;
        for (int i = from; i < chain.size(); i++) {
            Version v = chain.get(i);
            if (!s.inSubtree(v) || s.sameBatch(t, st, v)) {
                continue;
            }
            if (!s.node.isRoot()) {
                t.doom("ssi (inner): snapshot read of " + op.key() + " misses a newer write of another batch");
                return;
            }
            t.report(s.level, new AntiDependency(st.startTs, v.auxStamp(s.id)));
        }
        marks.add(op.key(), t, st);
        scheduleGc();
    }

    /**
     * A write over read marks of other batches: an anti-dependency per reader concurrent with this batch — not yet
     * committed, or committed after its start timestamp (inner: dooms over a live one). A reader that committed
     * before the batch's snapshot is ordered before it by the snapshot itself; both edges of a pivot run between
     * concurrent transactions (Fekete et al. 2005; docs/mechanisms.md, SSI), so reporting it only made pivots of
     * batches that are none — marks live until the watermark passes, tens of ms behind the newest snapshots.
     */
    void afterWrite(DsTxn t, SsiDsPart.Snapshot st, OpContext op) {
        for (ReadMarks.Mark m : marks.on(op.key())) {
            DsTxn r = m.reader();
            if (r == t || (r.finished() && !r.committed()) || m.state().startTs < 0) {
                continue;
            }
            boolean mate = !s.node.isLeaf() && s.node.sameGroup(t.id(), t.leaf(), t.instance(), r.id(), r.leaf(),
                    r.instance()) && m.state().startTs == st.startTs;
            if (mate) {
                continue;
            }
            if (!s.node.isRoot()) {
                if (!r.finished()) {
                    t.doom("ssi (inner): write of " + op.key() + " over the read of a live transaction of another batch");
                    return;
                }
                continue; // the reader committed first: the edge follows commit order
            }
            if (r.committed() && m.state().cts < st.startTs) {
                continue; // the reader committed before this batch's snapshot: not concurrent, in no dangerous structure
            }
            t.report(s.level, new AntiDependency(m.state().startTs, st.startTs));
        }
    }

    /**
     * Prunes the read marks every {@code gcMicros} while there are any: a timer asks the watermark, its reply prunes.
     * Both report the kind {@value #KIND} (docs/simulation.md, "Where a node's time goes"), the reply its marks looked
     * at as work units: in the simulated cluster they are charged their own cost, not that of the watermark replies
     * and timers that collect old versions.
     */
    private void scheduleGc() {
        if (!gcScheduled) {
            gcScheduled = true;
            s.services.schedule(gcMicros, () -> {
                HandlerUnits.kind(KIND);
                ts.watermark(false, wm -> {
                    HandlerUnits.kind(KIND);
                    HandlerUnits.add(marks.prune(wm));
                    gcScheduled = false;
                    if (marks.keys() > 0) {
                        scheduleGc();
                    }
                });
            });
        }
    }
}
