package org.tebaldi.cc.rp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.cc.TimedWait;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Op;

/**
 * TC part of runtime pipelining (dissertation §4.4.2, §2.3.1; Callas). Stored procedures run reordered into
 * steps (table sets in pipeline order). Moving from step {@code i} to step {@code j > i}, a transaction first
 * waits for its in-group dependencies (reported by the child) to release step {@code i}, then releases its own
 * step-{@code i} locks at the data servers, then waits for its cross-group dependencies (this node's own) to
 * release step {@code j} and its in-group dependencies to enter step {@code j}. Progress of transactions run by
 * other coordinators comes through TC-to-TC watch messages. A wait longer than the step timeout aborts (it breaks
 * deadlocks between groups).
 */
final class RpTcPart implements TcPart<RpTcPart.Pipeline> {
    private static final int KNOWN_MAX = 100_000;

    /**
     * A transaction's place in this node's pipeline: the step it entered, the last step it released, whether it
     * finished; who waits for its progress here and at other coordinators; its pending step wait.
     */
    static final class Pipeline {
        int entered = -1;
        int released = -1;
        boolean done;
        final List<Runnable> localWatchers = new ArrayList<>(0);
        final List<RpMessages.Watch> remoteWatches = new ArrayList<>(0);
        final List<NodeId> remoteFrom = new ArrayList<>(0);
        TimedWait stepWait;

        Progress progress() {
            return done ? Progress.FINISHED : new Progress(entered, released);
        }
    }

    private CcNode node;
    private final TcServices services;
    private final int level;
    private final RpPlan plan;
    private final long timeoutMicros;
    private final Map<Long, Progress> known = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Progress> e) {
            return size() > KNOWN_MAX;
        }
    };
    private final HashMap<Long, Runnable> pending = new HashMap<>();
    private long nextReq;

    private final StepRule stepRule;
    private final java.util.concurrent.atomic.LongAdder stepWaits = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder remoteWatches = new java.util.concurrent.atomic.LongAdder();
    private final java.util.Set<String> ablated;

    /**
     * @param ablated rules switched off for the tests that show each one matters ({@link RuntimePipelining#ABLATE}):
     *                {@code crossWait}, {@code inGroupWait}
     */
    RpTcPart(CcNode node, TcServices services, long timeoutMicros, StepRule stepRule, java.util.Set<String> ablated) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.plan = RpPlan.of(node, services.database());
        this.timeoutMicros = timeoutMicros;
        this.stepRule = stepRule;
        this.ablated = ablated;
    }

    @Override
    public Procedure procedure(TxnType type, Procedure p) {
        Procedure r = plan.procedure(type.name());
        return r == null ? p : r;
    }

    @Override
    public Pipeline newState(TcTxn t) {
        return new Pipeline();
    }

    @Override
    public Object meta(TcTxn t, Pipeline st) {
        return st.entered < 0 ? null : new RpMessages.Meta(st.entered, st.released);
    }

    /** Entering a new step needs the dependencies of every earlier operation (batched execution). */
    @Override
    public boolean needsPriorOps(TcTxn t, Pipeline st, Op op) {
        int s = plan.stepOf(op.key().table());
        return s >= 0 && s != st.entered;
    }

    @Override
    public void beforeOp(TcTxn t, Pipeline st, Op op, Continuation k) {
        int s = plan.stepOf(op.key().table());
        if (s < 0 || s == st.entered) {
            k.proceed();
        } else if (s < st.entered) {
            k.abort(AbortReason.error("rp: " + services.database().type(t.typeId()).name() + " accesses table "
                    + services.database().catalog().table(op.key().table()).name() + " (step " + s + ") after step "
                    + st.entered + "; it does not follow the pipeline " + plan.describe()));
        } else {
            transition(t, st, s, services.partitionOf(op.key()), k);
        }
    }

    /**
     * Moves {@code t} from its step to step {@code to}, whose first operation goes to data server {@code next}.
     * Releasing the step it leaves: when the step can be entered at once, {@code next} releases it on receiving
     * that operation's request (which carries the new step, {@link RpDsPart#onRequest}), so only the other
     * participants get a {@code Release} message; when entering must wait, every participant gets one now, so the
     * transactions behind it are not held up by the wait.
     */
    private void transition(TcTxn t, Pipeline st, int to, int next, Continuation k) {
        int from = st.entered;
        boolean end = to > plan.steps();
        int finished = Math.min(to, plan.steps()); // what cross-group dependencies must have finished
        Targets releaseWait = new Targets();
        Targets enterWait = new Targets();
        for (TxnDep d : t.dependencies()) {
            if (d.level() > level) {
                if (from >= 0) {
                    releaseWait.require(d.txnId(), d.typeId(), -1, from);
                }
                if (!ablated.contains("inGroupWait")) {
                    enterWait.require(d.txnId(), d.typeId(), to, -1); // in-group: has started step `to`
                }
            } else if (d.level() == level && !ablated.contains("crossWait")) {
                enterWait.require(d.txnId(), d.typeId(), -1, finished); // cross-group: has finished step `to`
            }
        }
        st.stepWait = services.awaitOrTimeout(timeoutMicros, () -> k.abort(AbortReason.conflict("rp: waited more than "
                + timeoutMicros / 1000 + " ms to " + (end ? "end its execution" : "enter a step") + " at rp node "
                + node.id())));
        await(t, releaseWait, () -> {
            boolean now = enterWait.reachedBy(this::reached);
            if (end && now) {
                st.released = from; // the validation requests release it at every participant
            } else if (from >= 0) {
                release(t, st, from, now ? next : -1);
            }
            await(t, enterWait, () -> {
                if (st.done || !st.stepWait.complete()) {
                    return; // ended (e.g. timed out) meanwhile
                }
                st.entered = to;
                if (stepRule == StepRule.PAPER) {
                    st.released = Math.max(st.released, to - 1); // executing step `to`: every step below is done
                }
                changed(t, st);
                k.proceed();
            });
        });
    }

    /**
     * The end of execution ({@link StepRule#PAPER}): a transition to a step past the last, under the same rules —
     * once its in-group dependencies finished its step it releases it, and once its cross-group dependencies finished
     * every step (ended their execution) and its in-group ones ended theirs, it has finished every step. The
     * validation requests carry that step to every participant ({@link #meta}), where its step locks are released;
     * only if it must wait are the participants told of its last step at once. Under {@link StepRule#STRICT} its last
     * step stays held until it commits or aborts.
     */
    @Override
    public void beforeValidation(TcTxn t, Pipeline st, Continuation k) {
        if (stepRule != StepRule.PAPER || st.entered < 0 || st.done) {
            k.proceed();
            return;
        }
        transition(t, st, plan.steps() + 1, -1, k); // steps are numbered 1 .. steps()
    }

    /** Releases {@code t}'s steps up to {@code upTo} at every participant but {@code except} (-1: none). */
    private void release(TcTxn t, Pipeline st, int upTo, int except) {
        st.released = upTo;
        for (int ds : t.participants()) {
            if (ds != except) {
                services.send(NodeId.ds(ds), node.id(), new RpMessages.Release(t.id(), upTo));
            }
        }
        changed(t, st);
    }

    /**
     * Runs {@code then} once every listed transaction reached its (entered, released) target; each wait is a
     * blocking event for the profiler (a step wait, §5.3.2).
     */
    private void await(TcTxn t, Targets targets, Runnable then) {
        int[] left = {0};
        boolean[] ran = {false};
        Runnable check = () -> {
            if (left[0] == 0 && !ran[0]) {
                ran[0] = true;
                then.run();
            }
        };
        for (int i = 0; i < targets.n; i++) {
            long id = targets.ids[i];
            int entered = targets.entered[i];
            int released = targets.released[i];
            int type = targets.types[i];
            if (!reached(id, entered, released)) {
                if (left[0] == 0) {
                    stepWaits.increment();
                }
                left[0]++;
                long since = services.nowMicros();
                watch(id, entered, released, () -> {
                    BlockingSink sink = services.blocking();
                    if (sink != null) {
                        sink.blocked(t.id(), t.typeId(), id, type, since, services.nowMicros());
                    }
                    left[0]--;
                    check.run();
                });
            }
        }
        check.run();
    }

    /** Whether transaction {@code id} reached (entered ≥ {@code entered}, released ≥ {@code released}) here. */
    private boolean reached(long id, int entered, int released) {
        if (services.coordinatorOf(id).equals(services.self())) {
            TcTxn d = services.txn(id);
            Pipeline ds = d == null ? null : d.state(level, Pipeline.class);
            if (d == null || ds == null) {
                return d == null || (entered <= -1 && released <= -1);
            }
            return ds.done || (ds.entered >= entered && ds.released >= released);
        }
        Progress p = known.get(id);
        return p == null ? entered <= -1 && released <= -1 : p.reaches(entered, released);
    }

    private void watch(long id, int entered, int released, Runnable reached) {
        if (services.coordinatorOf(id).equals(services.self())) {
            TcTxn d = services.txn(id);
            Pipeline ds = d == null ? null : d.state(level, Pipeline.class);
            if (ds == null) {
                services.later(reached);
                return;
            }
            Runnable[] self = new Runnable[1];
            self[0] = () -> {
                if (ds.progress().reaches(entered, released)) {
                    reached.run();
                } else {
                    ds.localWatchers.add(self[0]);
                }
            };
            ds.localWatchers.add(self[0]);
            return;
        }
        long r = ++nextReq;
        remoteWatches.increment();
        pending.put(r, reached);
        services.send(services.coordinatorOf(id), node.id(), new RpMessages.Watch(r, id, entered, released));
    }

    /** A local transaction progressed: wake local watchers and answer remote ones that are now satisfied. */
    private void changed(TcTxn t, Pipeline st) {
        List<Runnable> w = new ArrayList<>(st.localWatchers);
        st.localWatchers.clear();
        for (Runnable r : w) {
            services.later(r);
        }
        Progress p = st.progress();
        for (int i = st.remoteWatches.size() - 1; i >= 0; i--) {
            RpMessages.Watch watch = st.remoteWatches.get(i);
            if (p.reaches(watch.entered(), watch.released())) {
                reply(st.remoteFrom.get(i), watch, p, st.done);
                st.remoteWatches.remove(i);
                st.remoteFrom.remove(i);
            }
        }
    }

    private void reply(NodeId to, RpMessages.Watch w, Progress p, boolean done) {
        services.send(to, node.id(), new RpMessages.Progress(w.reqId(), w.txnId(), p.entered(), p.released(), done));
    }

    /** A data server's knowledge of a dependency's progress ({@link RpMessages.Known}): a lower bound, merged. */
    @Override
    public void onReport(TcTxn t, Pipeline st, org.tebaldi.core.cc.CcReport report) {
        if (report instanceof RpMessages.Known k && !services.coordinatorOf(k.txnId()).equals(services.self())) {
            Progress p = known.get(k.txnId());
            if (k.done()) {
                known.put(k.txnId(), Progress.FINISHED);
            } else if (p == null || p.released() < k.released()) {
                known.put(k.txnId(), new Progress(p == null ? -1 : p.entered(), k.released()));
            }
        }
    }

    @Override
    public void finish(TcTxn t, Pipeline st, boolean committed) {
        if (st.done) {
            return;
        }
        st.done = true;
        if (st.stepWait != null) {
            st.stepWait.cancel();
        }
        changed(t, st);
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        if (payload instanceof RpMessages.Watch w) {
            TcTxn t = services.txn(w.txnId());
            Pipeline st = t == null ? null : t.state(level, Pipeline.class);
            Progress p = st == null ? Progress.FINISHED : st.progress();
            if (p.reaches(w.entered(), w.released())) {
                reply(from, w, p, st == null || st.done);
            } else {
                st.remoteWatches.add(w);
                st.remoteFrom.add(from);
            }
        } else if (payload instanceof RpMessages.Progress p) {
            Progress old = known.get(p.txnId());
            known.put(p.txnId(), p.done() ? Progress.FINISHED : old == null ? new Progress(p.entered(), p.released())
                    : new Progress(Math.max(old.entered(), p.entered()), Math.max(old.released(), p.released())));
            Runnable r = pending.remove(p.reqId());
            if (r != null) {
                r.run();
            }
        }
    }

    /**
     * {@code rp.stepWaits}: step transitions (and ends of execution) that had to wait for a dependency;
     * {@code rp.remoteWatches}: waits on a transaction of another coordinator, each a {@code Watch} message answered
     * by a {@code Progress} message.
     */
    @Override
    public Map<String, Long> counters() {
        return Map.of("rp.stepWaits", stepWaits.sum(), "rp.remoteWatches", remoteWatches.sum());
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }
}
