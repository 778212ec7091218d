package org.tebaldi.server.msg;

import org.tebaldi.core.runtime.cost.CostUnits;

/**
 * The recovery protocol (dissertation §4.5.4, "data servers coordinate with each other via transaction
 * coordinators"), run by coordinator 0 after a data server restarted from its store: begin (everyone stops; each
 * data server reads its store — step 1), summaries, decision (step 2: which logged transactions survive) applied by
 * each server with its CC state rebuilt (step 3), finish (logs folded and deleted), end (coordinators resolve durable
 * notifications and resume).
 */
public final class Recovery {
    private Recovery() {
    }

    /** DS → TC 0: this server restarted from its store and needs a recovery round. */
    public record Request(int ds) {
    }

    /** TC 0 → every TC and DS: recovery round {@code round} starts. */
    public record Begin(long round) {
    }

    /**
     * TC → TC 0: round {@code round} began here — running transactions aborted, new ones held. The round decides
     * nothing before every coordinator has begun it (TC 0 sends {@link Begin} again to a coordinator whose
     * acknowledgement is overdue): a coordinator that heard of the round only after the data servers resumed would
     * have committed against the recovered state and then counted those commits lost at {@link End}.
     */
    public record BeginAck(long round, int tc) {
    }

    /**
     * DS → TC 0: what the store holds. Per logged transaction (parallel arrays): its id; flags
     * ({@link #PRECOMMIT}, {@link #WRITES}, {@link #ABORTED}); the participant count of its precommit log (0 if
     * none); the precommit's epoch (-1 if none); the global epoch of its commit record (-1 if none).
     * {@code pendingRound}: a round decided here and not finished (-1 if none); {@code finishedRound}: the last
     * round finished here (0 if none).
     */
    public record Summary(long round, int ds, long persisted, long maxEpoch, long pendingRound, long finishedRound,
                          long[] txns,
                          byte[] flags, int[] participants, long[] precommitEpochs, long[] commitEpochs)
            implements CostUnits {
        /** Work units: the logged transactions summarized. */
        @Override
        public int costUnits() {
            return txns.length;
        }
    }

    /** {@link Summary} flag: a precommit log is there. */
    public static final byte PRECOMMIT = 1;
    /** {@link Summary} flag: the server is a writing participant and holds all its operation logs. */
    public static final byte WRITES = 2;
    /** {@link Summary} flag: an abort record is there. */
    public static final byte ABORTED = 4;

    /**
     * TC 0 → each DS: keep exactly the transactions in {@code keep} (of those it reported); the last persisted epoch
     * of the cluster is {@code persisted}; new epochs start at {@code epochBase}.
     */
    public record Decide(long round, long persisted, long epochBase, long[] keep) implements CostUnits {
        /** Work units: the transactions kept. */
        @Override
        public int costUnits() {
            return keep.length;
        }
    }

    /** DS → TC 0: the decision is applied and on disk; the store now holds {@code rows} keys. */
    public record Applied(long round, int ds, long rows, int kept, int dropped) {
    }

    /** TC 0 → every DS: fold and delete the logs of round {@code round}. */
    public record Finish(long round) {
    }

    /** DS → TC 0: round finished here. */
    public record Finished(long round, int ds) {
    }

    /**
     * TC 0 → every TC: the round is over; transactions with a global epoch up to {@code persisted} survived, later
     * ones are lost; data servers report epochs from {@code epochBase} on.
     */
    public record End(long round, long persisted, long epochBase) {
    }

    /**
     * TC → TC 0: the end of round {@code round} arrived here (TC 0 sends {@link End} again to a coordinator whose
     * acknowledgement is overdue: a dropped connection loses what was in flight).
     */
    public record EndAck(long round, int tc) {
    }
}
