package org.tebaldi.server.ds;

import java.util.Map;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecReplies;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.msg.ValidateRequest;
import org.tebaldi.server.node.Lease;

/**
 * Fencing of a data server by its lease ({@code replication.fencing: lease}, docs/reliability.md "No split brain"):
 * while the server does not hold its {@link Lease} — its ZooKeeper session was not confirmed for the lease's length,
 * shorter than the session timeout after which the cluster may promote a backup — it refuses every operation and
 * validation request (a retryable refusal, as a recovering server's) and holds back every vote, so a primary cut off
 * from ZooKeeper stops acknowledging before a replacement can exist. Runs last in the feature list, so the check is
 * made when the vote would leave (after its log and replication waits). Data-server thread only, except
 * {@link #counters}.
 */
final class DsFencing implements DsFeature {
    private static final Logger LOG = LoggerFactory.getLogger(DsFencing.class);

    private final DataServer ds;
    private final Lease lease;
    private volatile long refused;
    private volatile long votesHeld;
    private boolean fenced;

    DsFencing(DataServer ds, Lease lease) {
        this.ds = ds;
        this.lease = lease;
    }

    @Override
    public boolean intercept(NodeId from, Object msg) {
        if (!(msg instanceof ExecRequest || msg instanceof ExecBatch || msg instanceof ValidateRequest)) {
            return false;
        }
        if (holds()) {
            return false;
        }
        refused++;
        String why = "data server ds" + ds.dsIndex() + " is fenced: its lease ran out (cut off from ZooKeeper)";
        if (msg instanceof ExecRequest r) {
            ds.send(from, new ExecReply(r.header().txnId(), r.opId(), false, null, why, true, null, null));
        } else if (msg instanceof ExecBatch b) {
            ds.send(from, new ExecReplies(new ExecReply[]{
                new ExecReply(b.header().txnId(), b.opIds()[0], false, null, why, true, null, null)}));
        } else {
            ValidateRequest r = (ValidateRequest) msg;
            ds.send(from, new ValidateReply(r.txnId(), false, why, true, null, null));
        }
        return true;
    }

    @Override
    public void beforeVote(DsTxnImpl t, int writers, long epoch, LongConsumer next) {
        if (holds()) {
            next.accept(epoch);
        } else {
            votesHeld++; // its coordinator times out and aborts it (or a recovery round decides it)
        }
    }

    private boolean holds() {
        boolean held = lease.held();
        if (held == fenced) {
            fenced = !held;
            if (fenced) {
                LOG.warn("ds{}: lease ({} ms) ran out: fenced, acknowledging nothing", ds.dsIndex(),
                        lease.lengthMillis());
            } else {
                LOG.info("ds{}: lease renewed: serving again", ds.dsIndex());
            }
        }
        return held;
    }

    @Override
    public void counters(Map<String, Long> out) {
        out.put("fencedRequests", refused);
        out.put("fencedVotes", votesHeld);
    }

    @Override
    public void close() {
        LOG.info("ds{}: fencing: {} request(s) refused, {} vote(s) held back while the lease was out", ds.dsIndex(),
                refused, votesHeld);
    }
}
