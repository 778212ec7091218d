package org.tebaldi.server.epoch;

import org.tebaldi.server.msg.CommitRequest;

/**
 * The messages of epoch-based commit (COCO, Lu et al. VLDB 2021, §3): the epoch coordinator ({@link EpochService})
 * and the coordinators and data servers. An epoch id is {@code term << 32 | n} ({@link EpochService#epochId}), so ids
 * increase strictly across the service's terms. Every message may be lost (a dropped link); the service sends a
 * decision again until the coordinator acknowledges it, and ends a prepare that is not answered in time with an abort.
 */
public final class EpochMessages {
    private EpochMessages() {
    }

    /**
     * Service → every coordinator and data server: epoch {@code epoch} ended; prepare it. A coordinator closes its
     * open batch (the transactions it decided since the last epoch, each already prepared at its participants),
     * sends each data server the batch's commit requests for it ({@link Members}) and answers at once; a data server
     * answers once it is up and holds the {@link Members} of every coordinator in {@code coordinators} (the
     * coordinators this prepare went to, by index).
     */
    public record Prepare(long epoch, int[] coordinators) {
    }

    /**
     * Coordinator → every data server, at an epoch's prepare: the commit requests of the coordinator's batch for
     * this server ({@code commits}, possibly empty). A data server keeps them until the epoch's decision, so that a
     * coordinator that dies after its vote cannot split the epoch: the server applies the decision to the dead
     * coordinator's members itself (docs/mechanisms.md, "Epoch-based commit").
     */
    public record Members(long epoch, CommitRequest[] commits) {
    }

    /** Coordinator or data server → service: {@code epoch} is prepared here ({@code ok}) or cannot be. */
    public record Prepared(long epoch, boolean ok) {
    }

    /**
     * Service → every coordinator and data server: the outcome of {@code epoch}: at a coordinator, commit releases
     * every transaction of the epoch's batch (commit messages to the participants, outcomes to the clients), abort
     * aborts each (retryably); a decision for an epoch the coordinator never prepared (its prepare was lost) can only
     * be an abort: it aborts the open batch. A data server applies it to the members of failed coordinators.
     */
    public record Decision(long epoch, boolean commit) {
    }

    /**
     * Coordinator or data server → service: the decision of {@code epoch} was applied here (the service stops
     * sending it).
     */
    public record Done(long epoch) {
    }
}
