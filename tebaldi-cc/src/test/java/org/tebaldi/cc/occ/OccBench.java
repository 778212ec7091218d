package org.tebaldi.cc.occ;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.tebaldi.cc.testkit.FakeDs;
import org.tebaldi.cc.testkit.FakeTxn;
import org.tebaldi.cc.testkit.Probe;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.Op;

/**
 * One OCC DS part at one data server, driven by hand the way the data server drives it: reads through the
 * read-version chain (the transaction's own write as the leaf's proposal), writes installing uncommitted versions,
 * afterOp with what the operation returned and wrote, validation, commit (versions marked committed first) and
 * abort (versions removed first). Messages the part sends are collected; transactions are looked up by id.
 */
final class OccBench implements DsServices {
    final TableSchema table = new Catalog().add("t", 1, 0, false, Catalog.longCol("v"));
    final FakeDs ds = new FakeDs();
    final OccDsPart part;
    final int level;
    final Map<Key, VersionChain> store = new HashMap<>();
    final Map<Long, FakeTxn> txns = new HashMap<>();
    final List<Object> sent = new ArrayList<>();

    OccBench(CcNode node) {
        this.part = new OccDsPart(node, this);
        this.level = node.depth();
    }

    Key key(long k) {
        return Key.of(table, k);
    }

    /** Loads {@code key} with an initial committed version. */
    Version load(long k, long value) {
        Version v = Version.initial(table.row(value));
        chain(key(k)).append(v);
        return v;
    }

    VersionChain chain(Key key) {
        return store.computeIfAbsent(key, x -> new VersionChain());
    }

    @Override
    public VersionChain find(Key key) {
        return store.get(key);
    }

    FakeTxn txn(long id, int leaf) {
        FakeTxn t = new FakeTxn(id, leaf, id);
        txns.put(id, t);
        return t;
    }

    OccDsPart.Txn st(FakeTxn t) {
        return t.stateFor(level, part);
    }

    /** A read: what the transaction sees (null: absent). */
    Row read(FakeTxn t, long k) {
        Key key = key(k);
        VersionChain chain = chain(key);
        Version p = part.chooseRead(t, st(t), op(Op.read(key), chain, null, null), chain.versionBy(t.id()));
        if (p == null) {
            p = chain.latestCommitted();
        }
        part.afterOp(t, st(t), op(Op.read(key), chain, p, null));
        return p == null ? null : p.value();
    }

    /** A blind write: installs (or overwrites) the transaction's uncommitted version, appended. */
    Version write(FakeTxn t, long k, long value) {
        Key key = key(k);
        VersionChain chain = chain(key);
        Version own = chain.versionBy(t.id());
        if (own == null) {
            own = new Version(t.id(), t.leaf(), t.instance(), table.row(value), false);
            chain.append(own);
        } else {
            own.overwrite(table.row(value));
        }
        part.afterOp(t, st(t), op(Op.write(key, table.row(value)), chain, null, own));
        return own;
    }

    /** A read-modify-write (read, then write of value + 1). */
    Version increment(FakeTxn t, long k) {
        Key key = key(k);
        VersionChain chain = chain(key);
        Version own = chain.versionBy(t.id());
        Version p = part.chooseRead(t, st(t), op(Op.read(key), chain, null, null), own);
        if (p == null) {
            p = chain.latestCommitted();
        }
        Row nv = table.row((Long) p.value().get(0) + 1);
        if (own == null) {
            own = new Version(t.id(), t.leaf(), t.instance(), nv, false);
            chain.append(own);
        } else {
            own.overwrite(nv);
        }
        part.afterOp(t, st(t), op(Op.update(key, r -> r), chain, p, own));
        return own;
    }

    Probe validate(FakeTxn t) {
        Probe p = new Probe();
        part.validate(t, st(t), p);
        ds.drain();
        return p;
    }

    void commit(FakeTxn t, long tid) {
        for (VersionChain c : store.values()) {
            Version v = c.versionBy(t.id());
            if (v != null) {
                v.commit();
            }
        }
        part.finish(t, st(t), true, new OccMessages.CommitTid(tid));
        t.finish(ds, true);
        ds.drain();
    }

    void abort(FakeTxn t) {
        for (VersionChain c : store.values()) {
            Version v = c.versionBy(t.id());
            if (v != null && !v.committed()) {
                c.remove(v);
            }
        }
        part.finish(t, st(t), false, null);
        t.finish(ds, false);
        ds.drain();
    }

    /** Writers of {@code key}'s versions in version order ("c" suffix: committed). */
    String order(long k) {
        StringBuilder b = new StringBuilder();
        for (Version v : chain(key(k)).versions()) {
            b.append(b.length() == 0 ? "" : " ").append(v.writer()).append(v.committed() ? "c" : "");
        }
        return b.toString();
    }

    private static OpContext op(Op op, VersionChain chain, Version chosen, Version written) {
        return new OpContext() {
            @Override
            public Op op() {
                return op;
            }

            @Override
            public VersionChain chain() {
                return chain;
            }

            @Override
            public Version chosen() {
                return chosen;
            }

            @Override
            public Version written() {
                return written;
            }

            @Override
            public void dependOn(DsTxn other) {
                throw new AssertionError("occ reports no dependency during an operation");
            }

            @Override
            public void placeBefore(java.util.function.Predicate<Version> later) {
                throw new AssertionError("occ places no version during an operation");
            }
        };
    }

    // ---- DsServices ------------------------------------------------------------------------------------------

    @Override
    public int dsIndex() {
        return 0;
    }

    @Override
    public void addDependency(DsTxn owner, DsTxn on, int level) {
        ((FakeTxn) owner).dependsOn(on, level);
    }

    @Override
    public DsTxn txn(long id) {
        FakeTxn t = txns.get(id);
        return t == null || t.finished() ? null : t;
    }

    @Override
    public void awaitFinish(DsTxn other, Consumer<Boolean> onFinish) {
        ds.awaitFinish(other, onFinish);
    }

    @Override
    public org.tebaldi.core.db.Database database() {
        return null;
    }

    @Override
    public NodeId self() {
        return NodeId.ds(0);
    }

    @Override
    public long nowMicros() {
        return ds.nowMicros();
    }

    @Override
    public long newRequestId() {
        return ds.newRequestId();
    }

    @Override
    public Cancellable schedule(long delayMicros, Runnable task) {
        return ds.schedule(delayMicros, task);
    }

    @Override
    public void send(NodeId to, int ccNode, Object payload) {
        sent.add(payload);
    }

    @Override
    public long waitTimeoutMicros() {
        return ds.waitTimeoutMicros();
    }

    @Override
    public BlockingSink blocking() {
        return null;
    }

    @Override
    public void later(Runnable task) {
        ds.later(task);
    }
}
