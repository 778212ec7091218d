package org.tebaldi.cc.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.tebaldi.core.cc.DsTxn;

/** A hand-driven DS transaction for mechanism unit tests. */
public final class FakeTxn implements DsTxn {
    private final long id;
    private final int leaf;
    private final long priority;
    private final Object[] states = new Object[8];
    private final Object[] meta = new Object[8];
    private final List<Dependency> deps = new ArrayList<>();
    final List<Consumer<Boolean>> waiters = new ArrayList<>();
    private boolean finished;
    private boolean committed;

    public FakeTxn(long id, int leaf, long priority) {
        this.id = id;
        this.leaf = leaf;
        this.priority = priority;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public int typeId() {
        return leaf;
    }

    @Override
    public int leaf() {
        return leaf;
    }

    @Override
    public long instance() {
        return 0;
    }

    @Override
    public long priority() {
        return priority;
    }

    @Override
    public <S> S state(int level, Class<S> type) {
        return type.isInstance(states[level]) ? type.cast(states[level]) : null;
    }

    /**
     * The state {@code part} (at {@code level}) keeps for this transaction, made by its {@code newState} on first use —
     * as the data server does at the transaction's first request.
     */
    @SuppressWarnings("unchecked")
    public <S> S stateFor(int level, org.tebaldi.core.cc.DsPart<S> part) {
        if (states[level] == null) {
            states[level] = part.newState(this);
        }
        return (S) states[level];
    }

    @Override
    public boolean finished() {
        return finished;
    }

    @Override
    public boolean committed() {
        return committed;
    }

    @Override
    public List<Dependency> dependencies() {
        return deps;
    }

    @Override
    public <M> M meta(int level, Class<M> type) {
        return type.isInstance(meta[level]) ? type.cast(meta[level]) : null;
    }

    /** Reports sent through {@link #report}, as "level:info". */
    public final List<String> reports = new ArrayList<>();
    /** Why the transaction was doomed, or null. */
    public String doomed;

    @Override
    public void report(int level, org.tebaldi.core.cc.CcReport report) {
        reports.add(level + ":" + report);
    }

    @Override
    public void doom(String why) {
        if (doomed == null) {
            doomed = why;
        }
    }

    public void setMeta(int level, Object m) {
        meta[level] = m;
    }

    /** Adds a dependency on {@code on} as if reported by the part at {@code level}. */
    public FakeTxn dependsOn(DsTxn on, int level) {
        deps.add(new Dependency(on, level));
        return this;
    }

    /** Marks the outcome (call after the parts' commit/abort), waking waiters through {@code ds}. */
    public void finish(FakeDs ds, boolean commit) {
        finished = true;
        committed = commit;
        for (Consumer<Boolean> w : waiters) {
            ds.later(() -> w.accept(commit));
        }
        waiters.clear();
    }

    @Override
    public String toString() {
        return "T" + id;
    }
}
