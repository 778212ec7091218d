package org.tebaldi.cc.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeId;

/** Hand-driven data-server services: virtual clock, manual timers, an explicit ready queue. */
public final class FakeDs implements DsServices {
    private final ArrayDeque<Runnable> ready = new ArrayDeque<>();
    private final List<long[]> timerTimes = new ArrayList<>();
    private final List<Runnable> timers = new ArrayList<>();
    private final List<boolean[]> cancelled = new ArrayList<>();
    public final List<String> blockingEvents = new ArrayList<>();
    private long now;
    private long requestIds;

    private final java.util.Map<Integer, Long> served = new java.util.HashMap<>();

    @Override
    public void served(int ccNode, long ts) {
        served.merge(ccNode, ts, Math::max);
    }

    @Override
    public long highestServed(int ccNode) {
        return served.getOrDefault(ccNode, -1L);
    }

    /** Database for parts that ask (null unless a test sets it). */
    public org.tebaldi.core.db.Database db;

    @Override
    public org.tebaldi.core.db.Database database() {
        return db;
    }

    @Override
    public long waitTimeoutMicros() {
        return 200_000;
    }

    @Override
    public void addDependency(DsTxn owner, DsTxn on, int level) {
        ((FakeTxn) owner).dependsOn(on, level);
    }

    @Override
    public int dsIndex() {
        return 0;
    }

    /** What {@link #coordinators} answers (0 unless a test sets it). */
    public int coordinators;

    @Override
    public int coordinators() {
        return coordinators;
    }

    /** What {@link #find} answers, by key (tests fill it). */
    public final java.util.Map<org.tebaldi.core.model.Key, org.tebaldi.core.storage.VersionChain> chains =
            new java.util.HashMap<>();

    @Override
    public org.tebaldi.core.storage.VersionChain find(org.tebaldi.core.model.Key key) {
        return chains.get(key);
    }

    /** Live transactions by id, for {@link #txn} (empty unless a test registers them). */
    public final java.util.Map<Long, DsTxn> txns = new java.util.HashMap<>();

    @Override
    public DsTxn txn(long id) {
        return txns.get(id);
    }

    @Override
    public void awaitFinish(DsTxn other, Consumer<Boolean> onFinish) {
        if (other.finished()) {
            later(() -> onFinish.accept(other.committed()));
        } else {
            ((FakeTxn) other).waiters.add(onFinish);
        }
    }

    @Override
    public long newRequestId() {
        return ++requestIds;
    }

    @Override
    public NodeId self() {
        return NodeId.ds(0);
    }

    @Override
    public long nowMicros() {
        return now;
    }

    @Override
    public Cancellable schedule(long delayMicros, Runnable task) {
        boolean[] c = {false};
        timerTimes.add(new long[]{now + delayMicros});
        timers.add(task);
        cancelled.add(c);
        return () -> c[0] = true;
    }

    /** Advances the clock, firing due timers, then drains the ready queue. */
    public void advance(long micros) {
        now += micros;
        for (int i = 0; i < timers.size(); i++) {
            if (!cancelled.get(i)[0] && timerTimes.get(i)[0] <= now) {
                cancelled.get(i)[0] = true;
                timers.get(i).run();
            }
        }
        drain();
    }

    @Override
    public void send(NodeId to, int ccNode, Object payload) {
        sent.add(to + ":" + payload);
    }

    /** What parts sent ({@link #send}), as {@code to:payload}; no network in unit tests. */
    public final List<String> sent = new ArrayList<>();

    @Override
    public BlockingSink blocking() {
        return (w, wt, b, bt, begin, end) -> blockingEvents.add("T" + w + "<-T" + b + ":" + (end - begin));
    }

    @Override
    public void later(Runnable task) {
        ready.add(task);
    }

    /** Runs queued continuations. */
    public void drain() {
        Runnable r;
        while ((r = ready.poll()) != null) {
            r.run();
        }
    }
}
