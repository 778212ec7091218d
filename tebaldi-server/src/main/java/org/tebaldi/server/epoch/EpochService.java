package org.tebaldi.server.epoch;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.service.ElectedService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The epoch coordinator of epoch-based commit (COCO, Lu et al. VLDB 2021, §3; {@code cluster.commit: epoch}): a
 * singleton service node ({@link Role#EPOCH}) elected like the timestamp service. Every {@code epochMicros} µs it
 * ends the current epoch and runs one two-phase commit for the whole epoch: {@link EpochMessages.Prepare} to every
 * live coordinator and data server, then, once all answered {@code ok}, {@link EpochMessages.Decision} commit to
 * every live coordinator (which releases the epoch's transactions). A node that answers no, does not answer within
 * the prepare timeout ({@code max(10 × epoch, 100 ms)}: a lost message, a hung node), or fails ({@link NodeDown})
 * while the epoch is open or preparing, aborts the whole epoch: every transaction of it aborts, retryably. The
 * decision goes to the data servers too (they apply it to the members of a coordinator that died after its vote),
 * and is sent again every prepare timeout until each node acknowledges it ({@link EpochMessages.Done}). At most one
 * epoch prepares at a time: a tick that finds the previous one still preparing lets the open epoch run longer.
 *
 * <p>With a <em>staged</em> prepare (group durability: {@code durability.sync} under epoch commit) the coordinators
 * are asked first and the data servers only once every coordinator answered: a coordinator's answer closes its batch,
 * and every member's precommit record was logged at its data servers before its vote, so a data server that syncs
 * everything logged so far when it receives the prepare makes every record of the epoch durable.
 *
 * <p>Epoch ids are {@code term << 32 | n} ({@link #epochId}); a new term (after the service was lost) starts again
 * at n = 1, above every id of the old term, and coordinators abort the prepared epochs of an older term when the new
 * term first speaks to them. With a {@link DecisionLog} ({@link #useDecisionLog}; always, in clusters) a commit
 * decision leaves only once its record is durable (COCO §3.1's commit record), and a new term first sends the
 * commits earlier terms recorded and did not see acknowledged, so none of them is ended as aborted anywhere. Counters ({@link #committedEpochs}, {@link #meanCommitLatencyMicros}) are read by the
 * runner after a run; they are this instance's only.
 */
public final class EpochService implements Actor, ElectedService {
    private static final Logger LOG = LoggerFactory.getLogger(EpochService.class);

    private final long epochMicros;
    private final long timeoutMicros;
    private final Set<NodeId> members = new TreeSet<>();
    private NodeContext ctx;
    private long term = 1;
    private long seq;
    /** The epoch preparing (0: none), when its prepare left, and who has not answered yet. */
    private long preparing;
    private long preparedAt;
    private final Set<NodeId> awaiting = new HashSet<>();
    /** Whether a node failed since the last decision: the next epoch aborts without a prepare round. */
    private boolean doomNext;
    /** Decisions not yet acknowledged, by epoch: the decision and the nodes that still owe a Done. */
    private final Map<Long, Pending> unacked = new HashMap<>();
    private volatile long committed;
    private volatile long aborted;
    private volatile long latencySumMicros;

    private final Map<Long, Boolean> decisions;
    /** Staged prepare: data servers are asked once every coordinator answered; whether they were asked yet. */
    private final boolean staged;
    private boolean dsPhase;

    private record Pending(boolean commit, Set<NodeId> owing) {
    }

    /** Durable commit records ({@link #useDecisionLog}); null: decisions are sent at once and die with the instance. */
    private DecisionLog log;
    /** Commit records written and not yet acknowledged by every node (what the log holds). */
    private final java.util.TreeSet<Long> pendingCommits = new java.util.TreeSet<>();
    /** The epoch whose commit record is being written (0: none): its decision leaves once it is durable. */
    private long recording;

    /**
     * Records every commit decision in {@code log} before sending it (COCO's durable commit record), and at start
     * sends the decisions an earlier term recorded and did not see acknowledged. Call before the node starts.
     */
    public void useDecisionLog(DecisionLog log) {
        this.log = log;
    }

    /**
     * @param coordinators coordinators tc0 .. tc(n-1) of the cluster
     * @param dataServers  data servers ds0 .. ds(m-1)
     * @param epochMicros  epoch length, µs (COCO's default 10 ms)
     * @throws IllegalArgumentException if a count or the length is not positive
     */
    public EpochService(int coordinators, int dataServers, long epochMicros) {
        this(coordinators, dataServers, epochMicros, false);
    }

    /**
     * As {@link #EpochService(int, int, long)}; with {@code record} (verification runs) it keeps every decision
     * ({@link #decisions()}).
     */
    public EpochService(int coordinators, int dataServers, long epochMicros, boolean record) {
        this(coordinators, dataServers, epochMicros, record, false);
    }

    /**
     * As {@link #EpochService(int, int, long, boolean)}; with {@code staged} the prepare goes to the coordinators
     * first and to the data servers once every coordinator answered (group durability; see the class doc).
     */
    public EpochService(int coordinators, int dataServers, long epochMicros, boolean record, boolean staged) {
        this.staged = staged;
        this.decisions = record ? new java.util.TreeMap<>() : null;
        if (coordinators < 1 || dataServers < 1 || epochMicros <= 0) {
            throw new IllegalArgumentException("epoch service needs coordinators, data servers and a positive epoch "
                    + "length, got " + coordinators + ", " + dataServers + ", " + epochMicros + " µs");
        }
        this.epochMicros = epochMicros;
        this.timeoutMicros = Math.max(10 * epochMicros, 100_000);
        for (int i = 0; i < coordinators; i++) {
            members.add(NodeId.tc(i));
        }
        for (int i = 0; i < dataServers; i++) {
            members.add(NodeId.ds(i));
        }
    }

    /** The id of epoch {@code n} (≥ 1) of term {@code term} (≥ 1). */
    public static long epochId(long term, long n) {
        return term << 32 | n;
    }

    /** The term of an epoch id. */
    public static long termOf(long epochId) {
        return epochId >>> 32;
    }

    @Override
    public void startTerm(long epoch) {
        if (epoch < 1) {
            throw new IllegalArgumentException("a term's epoch is at least 1, got " + epoch);
        }
        this.term = epoch;
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
        if (log != null) {
            for (long e : log.pending()) {
                if (termOf(e) < term) {
                    // an earlier term recorded this commit and may have been lost before every node heard it: it
                    // leaves before anything of this term, so no node ends that epoch as aborted (FIFO per link)
                    pendingCommits.add(e);
                    LOG.info("epoch service term {}: sending again the commit of epoch {} of term {}", term,
                            e & 0xffff_ffffL, termOf(e));
                    send(e, true);
                }
            }
        }
        ctx.schedule(epochMicros, this::tick);
        ctx.schedule(timeoutMicros, this::resend);
    }

    @Override
    public void onMessage(NodeId from, Object msg) {
        if (msg instanceof EpochMessages.Prepared p) {
            onPrepared(from, p);
        } else if (msg instanceof DecisionLog.Recorded r) {
            if (r.term() == term && r.epoch() == recording) {
                recording = 0;
                send(r.epoch(), true);
            }
        } else if (msg instanceof EpochMessages.Done d) {
            Pending p = unacked.get(d.epoch());
            if (p != null && p.owing.remove(from) && p.owing.isEmpty()) {
                unacked.remove(d.epoch());
                acknowledged(d.epoch());
            }
        } else if (msg instanceof NodeDown d) {
            onNodeDown(d);
        } else {
            LOG.warn("epoch service: unexpected message {} from {}", msg, from);
        }
    }

    /** The epoch ends: prepare it (or abort it at once if a node failed while it was open). */
    private void tick() {
        ctx.schedule(epochMicros, this::tick);
        if (recording != 0) {
            return; // the last epoch's commit record is being written: the open epoch runs longer
        }
        if (preparing != 0) {
            if (ctx.nowMicros() - preparedAt > timeoutMicros) {
                decide(false, "no answer from " + awaiting + " within " + timeoutMicros / 1000 + " ms");
            }
            return;
        }
        long e = epochId(term, ++seq);
        if (doomNext) {
            doomNext = false;
            preparing = e;
            preparedAt = ctx.nowMicros();
            decide(false, "a node failed during the epoch");
            return;
        }
        preparing = e;
        preparedAt = ctx.nowMicros();
        dsPhase = !staged || members.stream().noneMatch(n -> n.role() == Role.TC);
        ask(n -> dsPhase || n.role() == Role.TC);
    }

    /** Sends the prepare of the epoch preparing to the members {@code which} selects, and awaits their answers. */
    private void ask(java.util.function.Predicate<NodeId> which) {
        awaiting.clear();
        EpochMessages.Prepare m = new EpochMessages.Prepare(preparing, members.stream()
                .filter(n -> n.role() == Role.TC).mapToInt(NodeId::index).toArray());
        for (NodeId n : members) {
            if (which.test(n)) {
                awaiting.add(n);
                ctx.send(n, m);
            }
        }
    }

    private void onPrepared(NodeId from, EpochMessages.Prepared p) {
        if (p.epoch() != preparing || !awaiting.contains(from)) {
            return;
        }
        if (!p.ok()) {
            decide(false, from + " cannot prepare");
            return;
        }
        awaiting.remove(from);
        if (awaiting.isEmpty() && !dsPhase) {
            dsPhase = true; // staged: every coordinator closed its batch; now the data servers sync and answer
            ask(n -> n.role() == Role.DS);
        } else if (awaiting.isEmpty()) {
            decide(true, null);
        }
    }

    private void decide(boolean commit, String why) {
        long e = preparing;
        preparing = 0;
        awaiting.clear();
        if (commit) {
            committed++;
            latencySumMicros += ctx.nowMicros() - preparedAt;
        } else {
            aborted++;
            LOG.info("epoch service term {}: epoch {} aborts: {}", term, e & 0xffff_ffffL, why);
        }
        if (commit && log != null) {
            recording = e; // the decision is taken once its record is durable (DecisionLog.Recorded)
            pendingCommits.add(e);
            log.recordCommit(term, e, pendingCommits);
            return;
        }
        send(e, commit);
    }

    /** Sends decision {@code commit} of epoch {@code e} to every member and awaits their acknowledgements. */
    private void send(long e, boolean commit) {
        if (decisions != null) {
            decisions.put(e, commit);
        }
        Set<NodeId> owing = new HashSet<>(members);
        EpochMessages.Decision m = new EpochMessages.Decision(e, commit);
        for (NodeId n : members) {
            ctx.send(n, m);
        }
        unacked.put(e, new Pending(commit, owing));
    }

    /** Sends every unacknowledged decision again (its message or the Done may have been lost). */
    private void resend() {
        ctx.schedule(timeoutMicros, this::resend);
        for (Map.Entry<Long, Pending> u : unacked.entrySet()) {
            EpochMessages.Decision m = new EpochMessages.Decision(u.getKey(), u.getValue().commit);
            for (NodeId n : u.getValue().owing) {
                ctx.send(n, m);
            }
        }
    }

    /**
     * A coordinator or data server failed: the epoch preparing aborts, and so does the one open now (COCO §3: a
     * failure aborts the epoch it happens in). A failed coordinator leaves the members (it does not come back); a
     * data server stays (it may restart from its log and answer again). Neither owes a Done any more: a restarted
     * data server lost the epochs' {@link EpochMessages.Members} with its memory (its recovery round settles its
     * prepared transactions).
     */
    private void onNodeDown(NodeDown d) {
        Role r = d.node().role();
        if (r != Role.TC && r != Role.DS) {
            return;
        }
        if (r == Role.TC) {
            members.remove(d.node());
        }
        for (var it = unacked.entrySet().iterator(); it.hasNext(); ) {
            var u = it.next();
            if (u.getValue().owing.remove(d.node()) && u.getValue().owing.isEmpty()) {
                it.remove();
                acknowledged(u.getKey());
            }
        }
        doomNext = true;
        if (preparing != 0) {
            decide(false, d.node() + " failed (" + d.reason() + ")");
        }
    }

    /** Every live node applied epoch {@code e}'s decision: its commit record, if any, may go. */
    private void acknowledged(long e) {
        if (log != null && pendingCommits.remove(e)) {
            log.forget(pendingCommits);
        }
    }

    /** Every decision of this instance by epoch id (true = commit); empty unless recording. */
    public Map<Long, Boolean> decisions() {
        return decisions == null ? Map.of() : java.util.Collections.unmodifiableMap(decisions);
    }

    /** Epochs this instance committed. */
    public long committedEpochs() {
        return committed;
    }

    /** Epochs this instance aborted. */
    public long abortedEpochs() {
        return aborted;
    }

    /** Mean time from an epoch's prepare to its commit decision, µs (0 if none committed). */
    public double meanCommitLatencyMicros() {
        return committed == 0 ? 0 : (double) latencySumMicros / committed;
    }
}
