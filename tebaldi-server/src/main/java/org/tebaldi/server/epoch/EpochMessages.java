package org.tebaldi.server.epoch;

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
     * open batch (the transactions it decided since the last epoch, each already prepared at its participants) and
     * answers at once; a data server answers if it is up (it holds the prepared-write records of the epoch).
     */
    public record Prepare(long epoch) {
    }

    /** Coordinator or data server → service: {@code epoch} is prepared here ({@code ok}) or cannot be. */
    public record Prepared(long epoch, boolean ok) {
    }

    /**
     * Service → every coordinator: the outcome of {@code epoch}: commit releases every transaction of the epoch's
     * batch (commit messages to the participants, outcomes to the clients), abort aborts each (retryably). A
     * decision for an epoch the coordinator never prepared (its prepare was lost) can only be an abort: it aborts the
     * open batch.
     */
    public record Decision(long epoch, boolean commit) {
    }

    /** Coordinator → service: the decision of {@code epoch} was applied here (the service stops sending it). */
    public record Done(long epoch) {
    }
}
