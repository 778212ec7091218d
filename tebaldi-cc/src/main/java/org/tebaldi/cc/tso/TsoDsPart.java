package org.tebaldi.cc.tso;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DependencyWaits;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.cc.TimedWait;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;

/**
 * DS part of multiversion timestamp ordering (dissertation §4.4.4). Versions written in this node's scope (a
 * leaf's own group — one instance of it under partition-by-instance — or an inner node's subtree) carry their
 * writer's timestamp (batch timestamp when inner) and are kept in timestamp order. A read returns the newest
 * version below its timestamp (its own batch's, as the child proposes, when inner), waiting first for promised
 * writes of older transactions; a write is refused when a reader with a higher timestamp already read below it.
 * Dependencies it creates are reported; as a child it also commits in timestamp order (a reader that skips an
 * already prepared or committed newer write aborts, and the skipped writer depends on it). As an inner node,
 * validation refuses a transaction that the child ordered after a transaction of a later batch (batches
 * constrain the child's order) or that read a batch's version when the same batch wrote a later one, and waits for
 * the child's other dependencies. Timestamp-ordering checks are repeated when the operation is applied, since a
 * child may make it wait first.
 */
final class TsoDsPart implements DsPart<TsoDsPart.Stamp> {
    private static final long GC_MICROS = 20_000;

    /** A transaction's timestamp here, whether it is prepared, and its reads of versions in scope (inner). */
    static final class Stamp {
        long ts = -1;
        boolean prepared;
        final List<Read> reads = new ArrayList<>(0);
    }

    /** A read of a version written in scope, with its chain (for the inner node's same-batch check). */
    private record Read(VersionChain chain, Version version) {
    }

    private CcNode node;
    private final DsServices services;
    private final int level;
    private final int id;
    private final long promiseTimeoutMicros;
    private final Promises promises = new Promises();
    private final ReadMarks marks;
    private final TsoClock clock;

    TsoDsPart(CcNode node, DsServices services, long promiseTimeoutMicros) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.id = node.id();
        this.promiseTimeoutMicros = promiseTimeoutMicros;
        this.clock = new TsoClock(node, services, GC_MICROS);
        this.marks = new ReadMarks(services, clock, GC_MICROS);
    }

    @Override
    public Stamp newState(DsTxn t) {
        return new Stamp();
    }

    @Override
    public void onRequest(DsTxn t, Stamp st) {
        TsoMessages.Meta m = t.meta(level, TsoMessages.Meta.class);
        if (m != null) {
            st.ts = m.ts();
            clock.live(st);
        }
    }

    /** Whether {@code v} was written in this node's scope as seen by {@code t}. */
    private boolean inScope(DsTxn t, Version v) {
        if (node.isLeaf()) {
            return v.writerLeaf() == id && (node.instanceBy() == null || v.writerInstance() == t.instance());
        }
        return node.contains(v.writerLeaf());
    }

    private boolean ownBatch(DsTxn t, Stamp st, Version v) {
        return v.writer() == t.id() || (!node.isLeaf() && v.stamp(id) == st.ts
                && node.sameGroup(t.id(), t.leaf(), t.instance(), v.writer(), v.writerLeaf(), v.writerInstance()));
    }

    @Override
    public void execute(DsTxn t, Stamp st, OpContext op, Continuation k) {
        String old = clock.refusal(st.ts);
        if (old != null) {
            clock.tell(t.id(), clock.floor());
            k.abort(AbortReason.conflict(old));
            return;
        }
        if (op.op().kind().reads()) {
            Promises.Promise p = promises.blocking(op.key(), st.ts, t.id());
            if (p != null && inScopeTxn(t, p.txn)) {
                // wait for the promised write (or the promiser's end, or the promise timeout), then look again
                long since = services.nowMicros();
                Runnable again = () -> {
                    report(t, p.txn, since);
                    execute(t, st, op, k);
                };
                TimedWait w = services.awaitOrTimeout(promiseTimeoutMicros, again);
                p.waiters.add(() -> {
                    if (w.complete()) {
                        again.run();
                    }
                });
                return;
            }
        }
        if (op.op().kind().writes()) {
            long mine = st.ts;
            op.placeBefore(v -> inScope(t, v) && v.stamp(id) > mine);
        }
        k.proceed();
    }

    /** A promiser is in scope if it is unknown here yet or runs in this node's scope for {@code t}. */
    private boolean inScopeTxn(DsTxn t, long txn) {
        DsTxn p = services.txn(txn);
        return p == null || sameScope(t, p);
    }

    /** Whether {@code other} runs in this node's scope as seen by {@code t} (its instance, for a leaf). */
    private boolean sameScope(DsTxn t, DsTxn other) {
        return node.isLeaf() ? other.leaf() == id && (node.instanceBy() == null || other.instance() == t.instance())
                : node.contains(other.leaf());
    }

    private void report(DsTxn waiter, long blocker, long since) {
        DsTxn b = services.txn(blocker);
        if (services.blocking() != null) {
            services.blocking().blocked(waiter.id(), waiter.typeId(), blocker, b == null ? -1 : b.typeId(), since,
                    services.nowMicros());
        }
    }

    @Override
    public Version chooseRead(DsTxn t, Stamp st, OpContext op, Version proposal) {
        if (proposal != null && ownBatch(t, st, proposal)) {
            return proposal;
        }
        VersionChain chain = op.chain();
        boolean belowProposal = false;
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            belowProposal |= v == proposal;
            if (inScope(t, v) ? v.stamp(id) < st.ts || (belowProposal && ownBatch(t, st, v)) : v.committed()) {
                return v;
            }
        }
        // Nothing visible below this timestamp: the row did not exist for this transaction. At the root, say so
        // (null would make the framework read the latest committed version, e.g. a row a later-timestamped
        // transaction inserted) — as SSI does for its snapshots.
        return node.isRoot() ? Version.ABSENT : null;
    }

    @Override
    public void afterOp(DsTxn t, Stamp st, OpContext op) {
        Version w = op.written();
        if (w != null) {
            w.setStamp(id, st.ts);
            afterWrite(t, st, op, w);
            for (Runnable r : promises.fulfil(t.id(), op.key())) {
                services.later(r);
            }
        }
        if (op.op().kind().reads()) {
            afterRead(t, st, op);
        }
    }

    private void afterWrite(DsTxn t, Stamp st, OpContext op, Version mine) {
        if (refused(t, st)) {
            return;
        }
        VersionChain chain = op.chain();
        int at = chain.indexOf(mine);
        for (ReadMarks.Mark m : marks.on(op.key())) {
            if (!sameScope(t, m.reader())) {
                continue;
            }
            // a later reader read below this write — or, when inner, read an earlier version of this very batch,
            // which is no longer the batch's last write (§4.4.4's same-timestamp rule, enforced by the writer)
            if (m.reader() != t && m.readerTs() > st.ts && m.readStamp() <= st.ts
                    && !(m.reader().finished() && !m.reader().committed())) {
                t.doom("tso: a transaction with a later timestamp already read " + op.key() + " below this write");
                clock.tell(t.id(), m.readerTs());
                return;
            }
            if (m.readerTs() < st.ts && !m.reader().finished()) {
                op.dependOn(m.reader());
            }
        }
        for (int i = 0; i < at; i++) {
            Version before = chain.get(i);
            if (inScope(t, before) && before.writer() != t.id() && before.stamp(id) > st.ts) {
                t.doom("tso: another level placed the write of " + op.key() + " after a newer version of this scope");
                return;
            }
        }
        for (int i = at + 1; i < chain.size(); i++) {
            Version later = chain.get(i);
            if (inScope(t, later) && later.stamp(id) < st.ts) {
                t.doom("tso: another level placed the write of " + op.key() + " before an older version of this scope");
                return;
            }
            if (!inScope(t, later)) {
                t.doom("tso: write of " + op.key() + " would go before a version of another group");
                return;
            }
            if (node.isRoot() || ownBatch(t, st, later)) {
                continue;
            }
            DsTxn writer = services.txn(later.writer());
            if (later.committed() || writer == null || prepared(writer)) {
                t.doom("tso: write of " + op.key() + " goes before a newer write that is already committed or"
                        + " prepared (TSO under a parent commits in timestamp order)");
                return;
            }
            services.addDependency(writer, t, level);
        }
        for (int i = at - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (inScope(t, v) && !v.committed() && v.writer() != t.id()) {
                DsTxn writer = services.txn(v.writer());
                if (writer != null) {
                    op.dependOn(writer);
                }
            }
        }
    }

    private void afterRead(DsTxn t, Stamp st, OpContext op) {
        if (refused(t, st)) {
            return;
        }
        Version c = op.chosen();
        if (c != null && c.writer() == t.id()) {
            return;
        }
        boolean scoped = c != null && inScope(t, c);
        if (scoped && !ownBatch(t, st, c) && c.stamp(id) > st.ts) {
            t.doom("tso: a parent made the read of " + op.key() + " return a version above this timestamp");
            return;
        }
        marks.add(op.key(), new ReadMarks.Mark(t, st.ts, scoped ? c.stamp(id) : Long.MIN_VALUE));
        if (scoped) {
            st.reads.add(new Read(op.chain(), c));
            if (!c.committed()) {
                DsTxn writer = services.txn(c.writer());
                if (writer != null) {
                    op.dependOn(writer);
                }
            }
        }
        VersionChain chain = op.chain();
        for (int i = c == null ? 0 : chain.indexOf(c) + 1; i < chain.size(); i++) {
            Version v = chain.get(i);
            if (!inScope(t, v) || ownBatch(t, st, v)) {
                continue;
            }
            if (v.stamp(id) < st.ts) {
                t.doom("tso: a write of " + op.key() + " below this timestamp appeared while the read waited");
                return;
            }
            if (node.isRoot()) {
                continue;
            }
            DsTxn writer = services.txn(v.writer());
            if (v.committed() || writer == null || prepared(writer)) {
                t.doom("tso: read of " + op.key() + " skips a newer write that is already committed or prepared"
                        + " (TSO under a parent commits in timestamp order)");
                return;
            }
            services.addDependency(writer, t, level);
        }
    }

    /**
     * DST: whether the floor passed {@code t}'s timestamp since its operation started (marks below it may be gone,
     * versions it needs pruned) — then it is doomed and its coordinator told; in the same step as the mark checks.
     */
    private boolean refused(DsTxn t, Stamp st) {
        String old = clock.dst() ? clock.refusal(st.ts) : null;
        if (old != null) {
            t.doom(old);
            clock.tell(t.id(), clock.floor());
        }
        return old != null;
    }

    private boolean prepared(DsTxn t) {
        Stamp st = t.state(level, Stamp.class);
        return st != null && st.prepared;
    }

    @Override
    public void validate(DsTxn t, Stamp st, Continuation k) {
        if (node.isLeaf()) {
            st.prepared = true;
            k.proceed();
            return;
        }
        for (DsTxn.Dependency d : t.dependencies()) {
            // batches constrain the child (§4.2.2): it must not order this transaction after one of a later batch
            Stamp ds = d.level() > level ? d.on().state(level, Stamp.class) : null;
            if (ds != null && ds.ts > st.ts && !d.on().finished()) {
                k.abort(AbortReason.conflict("tso: the child ordered this transaction (batch " + st.ts
                        + ") after one of the later batch " + ds.ts));
                return;
            }
        }
        DependencyWaits.awaitLowerLevels(services, t, level, new Continuation() {
            @Override
            public void proceed() {
                for (Read r : st.reads) {
                    if (r.version().stamp(id) != st.ts && sameStampAfter(r)) {
                        k.abort(AbortReason.conflict("tso: read a version of batch " + r.version().stamp(id)
                                + " that the same batch overwrote later"));
                        return;
                    }
                }
                st.prepared = true;
                k.proceed();
            }

            @Override
            public void abort(AbortReason reason) {
                k.abort(reason);
            }
        });
    }

    /** True if a younger version of the same batch follows the version read (the read was not the batch's last). */
    private boolean sameStampAfter(Read r) {
        VersionChain c = r.chain();
        long stamp = r.version().stamp(id);
        for (int i = c.indexOf(r.version()) + 1; i < c.size(); i++) {
            if (c.get(i).stamp(id) == stamp) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void finish(DsTxn t, Stamp st, boolean committed, Object commitMeta) {
        clock.ended(st);
        st.prepared = false;
        st.reads.clear();
    }

    /**
     * Garbage collection (§4.5.3): a read returns the newest version of its scope below its timestamp, so a version
     * with timestamp {@code s} hides the older ones from every transaction whose timestamp is above {@code s}; the
     * epoch is confirmed once the watermark (the oldest timestamp of a running or future transaction or batch of
     * this node; under DST the data server's floor, {@link DstFloor}) is above the newest timestamp among
     * {@code written}.
     */
    @Override
    public void confirmGc(List<Version> written, Runnable confirmed) {
        clock.confirmGc(written, confirmed);
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        if (clock.handle(payload)) {
            return;
        }
        if (payload instanceof TsoMessages.Promise p) {
            promises.add(p.txnId(), p.ts(), p.keys());
        } else if (payload instanceof TsoMessages.PromiseDone d) {
            for (Runnable r : promises.end(d.txnId())) {
                services.later(r);
            }
        }
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }
}
