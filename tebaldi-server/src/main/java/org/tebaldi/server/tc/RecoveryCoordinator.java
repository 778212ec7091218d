package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.durability.RecoveryPlan;
import org.tebaldi.server.msg.Recovery;

/**
 * Runs recovery rounds at coordinator 0 (dissertation §4.5.4: "data servers coordinate with each other via
 * transaction coordinators"). A data server that restarted from its store asks for a round; the round begins at
 * every coordinator (running transactions abort, new ones wait) and every data server (step 1: read the store,
 * summarize the logs); with every summary in and every coordinator's {@link Recovery.BeginAck} (so no coordinator
 * still commits against the old state, nor — hearing of the round late — against the recovered one, and then counts
 * those commits lost at the end; a coordinator that is down holds the round there, as it holds a reconfiguration —
 * the burn draws no coordinator crash beside a data-server restart), {@link RecoveryPlan} decides which logged
 * transactions survive and each data server applies that (steps 2 and 3) and syncs a decision record; only when
 * all did, they delete their logs — so a crash during recovery leaves either every log in place (the next round decides the same) or a
 * decision recorded everywhere (the next round finishes it first). Then the coordinators resume. A restart during a
 * round starts a new round.
 *
 * <p>Lost messages (a dropped connection loses what was in flight): every resend interval (the transaction timeout,
 * or 500 ms without one) the coordinator sends the current step's request again to each data server whose answer
 * is missing — {@code Begin}, {@code Decide}, {@code Finish} — and {@code Begin} and {@code End} to each coordinator
 * that has not acknowledged it ({@link Recovery.BeginAck}, {@link Recovery.EndAck}); data servers and coordinators
 * answer a repeated request of a step they took without taking it again.
 */
final class RecoveryCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(RecoveryCoordinator.class);

    private enum Phase {
        IDLE, SUMMARIES, FINISHING_PENDING, APPLYING, FINISHING, ENDING
    }

    private final TransactionCoordinator tc;
    private final int dataServers;
    private Phase phase = Phase.IDLE;
    private long round;
    private long finishing;
    private Recovery.Summary[] summaries;
    private final Set<Integer> answered = new HashSet<>();
    /** Coordinators that acknowledged the current round's {@code Begin}. */
    private final Set<Integer> begun = new HashSet<>();
    private RecoveryPlan.Decision decision;
    /** The decision sent to each data server (for sending again). */
    private Recovery.Decide[] decides;
    private Recovery.End end;
    private long startedMicros;
    private boolean resending;

    RecoveryCoordinator(TransactionCoordinator tc, int dataServers) {
        this.tc = tc;
        this.dataServers = dataServers;
    }

    boolean intercept(NodeId from, Object msg) {
        if (msg instanceof Recovery.Request r) {
            request(r.ds());
        } else if (msg instanceof Recovery.Summary s) {
            summary(s);
        } else if (msg instanceof Recovery.BeginAck a) {
            if (phase == Phase.SUMMARIES && a.round() == round && begun.add(a.tc())) {
                decideOnceAllIn();
            }
        } else if (msg instanceof Recovery.Applied a) {
            if (phase == Phase.APPLYING && a.round() == round && answered.add(a.ds()) && answered.size() == dataServers) {
                phase = Phase.FINISHING;
                answered.clear();
                toDataServers(new Recovery.Finish(round));
            }
        } else if (msg instanceof Recovery.Finished f) {
            finished(f);
        } else if (msg instanceof Recovery.EndAck a) {
            if (phase == Phase.ENDING && a.round() == round && answered.add(a.tc())
                    && answered.size() == tc.config().coordinators()) {
                phase = Phase.IDLE;
            }
        } else {
            return false;
        }
        return true;
    }

    private void request(int ds) {
        if (phase == Phase.SUMMARIES) {
            tc.sendMessage(NodeId.ds(ds), new Recovery.Begin(round));
            return;
        }
        start("ds" + ds + " restarted from its store");
    }

    private void start(String why) {
        round = Math.max(round + 1, tc.nowMicros());
        phase = Phase.SUMMARIES;
        summaries = new Recovery.Summary[dataServers];
        answered.clear();
        begun.clear();
        startedMicros = tc.nowMicros();
        LOG.warn("tc{}: recovery round {} starts ({})", tc.tcIndex(), round, why);
        Recovery.Begin b = new Recovery.Begin(round);
        for (int i = 0; i < tc.config().coordinators(); i++) {
            tc.sendMessage(NodeId.tc(i), b);
        }
        toDataServers(b);
        if (!resending) {
            resending = true;
            tc.schedule(resendMicros(), this::resend);
        }
    }

    private long resendMicros() {
        long t = tc.config().txnTimeoutMicros();
        return t > 0 ? t : 500_000;
    }

    /** Sends the current step's request again to every node whose answer is missing; stops once idle. */
    private void resend() {
        switch (phase) {
            case IDLE -> {
                resending = false;
                return;
            }
            case SUMMARIES -> {
                for (int i = 0; i < dataServers; i++) {
                    if (summaries[i] == null) {
                        tc.sendMessage(NodeId.ds(i), new Recovery.Begin(round));
                    }
                }
                for (int i = 0; i < tc.config().coordinators(); i++) {
                    if (!begun.contains(i)) {
                        tc.sendMessage(NodeId.tc(i), new Recovery.Begin(round));
                    }
                }
            }
            case FINISHING_PENDING, FINISHING -> {
                long r = phase == Phase.FINISHING ? round : finishing;
                for (int i = 0; i < dataServers; i++) {
                    if (!answered.contains(i)) {
                        tc.sendMessage(NodeId.ds(i), new Recovery.Finish(r));
                    }
                }
            }
            case APPLYING -> {
                for (int i = 0; i < dataServers; i++) {
                    if (!answered.contains(i) && decides[i] != null) {
                        tc.sendMessage(NodeId.ds(i), decides[i]);
                    }
                }
            }
            case ENDING -> {
                for (int i = 0; i < tc.config().coordinators(); i++) {
                    if (!answered.contains(i)) {
                        tc.sendMessage(NodeId.tc(i), end);
                    }
                }
            }
            default -> throw new IllegalStateException("phase " + phase);
        }
        tc.schedule(resendMicros(), this::resend);
    }

    private void toDataServers(Object msg) {
        for (int i = 0; i < dataServers; i++) {
            tc.sendMessage(NodeId.ds(i), msg);
        }
    }

    private void summary(Recovery.Summary s) {
        if (phase != Phase.SUMMARIES || s.round() != round || s.ds() >= dataServers) {
            return;
        }
        summaries[s.ds()] = s;
        decideOnceAllIn();
    }

    /** Every summary is in and every coordinator began the round: finish a pending round first, or decide. */
    private void decideOnceAllIn() {
        for (Recovery.Summary x : summaries) {
            if (x == null) {
                return;
            }
        }
        if (begun.size() < tc.config().coordinators()) {
            return;
        }
        long pendingMax = -1;
        for (Recovery.Summary x : summaries) {
            pendingMax = Math.max(pendingMax, x.pendingRound());
        }
        if (pendingMax >= 0) {
            boolean everywhere = true;
            for (Recovery.Summary x : summaries) {
                everywhere &= x.pendingRound() == pendingMax || x.finishedRound() >= pendingMax;
            }
            if (everywhere) {
                LOG.warn("tc{}: round {} was decided everywhere before a crash: finishing it first", tc.tcIndex(),
                        pendingMax);
                phase = Phase.FINISHING_PENDING;
                finishing = pendingMax;
                answered.clear();
                toDataServers(new Recovery.Finish(pendingMax));
                return;
            }
        }
        long[] persisted = new long[dataServers];
        long maxEpoch = 0;
        List<List<RecoveryPlan.Seen>> seen = new ArrayList<>();
        for (Recovery.Summary x : summaries) {
            persisted[x.ds()] = x.persisted();
            maxEpoch = Math.max(maxEpoch, x.maxEpoch());
            List<RecoveryPlan.Seen> l = new ArrayList<>(x.txns().length);
            for (int i = 0; i < x.txns().length; i++) {
                byte f = x.flags()[i];
                l.add(new RecoveryPlan.Seen(x.txns()[i], (f & Recovery.PRECOMMIT) != 0, (f & Recovery.WRITES) != 0,
                        x.participants()[i], x.precommitEpochs()[i], x.commitEpochs()[i],
                        (f & Recovery.ABORTED) != 0));
            }
            seen.add(l);
        }
        decision = RecoveryPlan.decide(persisted, maxEpoch, seen);
        Map<RecoveryPlan.Rule, Integer> counts = RecoveryPlan.counts(decision);
        LOG.warn("tc{}: recovery round {}: cut at epoch {}; {} logged transaction(s) survive, dropped {}",
                tc.tcIndex(), round, decision.persisted(), decision.keep().size(), counts);
        phase = Phase.APPLYING;
        answered.clear();
        decides = new Recovery.Decide[dataServers];
        for (Recovery.Summary x : summaries) {
            long[] keep = Arrays.stream(x.txns()).filter(decision.keep()::contains).toArray();
            decides[x.ds()] = new Recovery.Decide(round, decision.persisted(), decision.epochBase(), keep);
            tc.sendMessage(NodeId.ds(x.ds()), decides[x.ds()]);
        }
    }

    private void finished(Recovery.Finished f) {
        if (phase == Phase.FINISHING_PENDING && f.round() == finishing) {
            if (answered.add(f.ds()) && answered.size() == dataServers) {
                start("finishing an interrupted round");
            }
        } else if (phase == Phase.FINISHING && f.round() == round) {
            if (answered.add(f.ds()) && answered.size() == dataServers) {
                phase = Phase.ENDING;
                answered.clear();
                decides = null;
                end = new Recovery.End(round, decision.persisted(), decision.epochBase());
                for (int i = 0; i < tc.config().coordinators(); i++) {
                    tc.sendMessage(NodeId.tc(i), end);
                }
                LOG.warn("tc{}: recovery round {} done in {} ms", tc.tcIndex(), round,
                        (tc.nowMicros() - startedMicros) / 1000);
            }
        }
    }
}
