package org.tebaldi.server.epoch;

import java.util.SortedSet;

/**
 * The epoch coordinator's durable commit records (COCO, Lu et al. VLDB 2021, §3.1: "the coordinator first writes a
 * durable <em>commit</em> record ... then sends a commit message to each participant"). The {@link EpochService}
 * records an epoch's commit before it sends the decision, and forgets it once every live node acknowledged it; a new
 * term of the service (after the instance was lost) reads the records left and sends those decisions again before it
 * speaks otherwise, so an epoch whose commit reached some nodes is never ended as aborted by the next term at the
 * others (presumed abort: an epoch without a record aborted). Each call hands the whole set of pending commit records,
 * so an implementation may coalesce writes (group commit) and keep only the newest set.
 *
 * <p>Implementations: {@link MemoryDecisionLog} (one per simulated or embedded cluster, outliving the service's
 * instances) and {@code zk.ZkDecisionLog} (process mode: a znode). Calls come from the service's thread and never
 * block it; completion arrives as a {@link Recorded} message to the service.
 */
public interface DecisionLog {
    /**
     * Makes {@code pending} (which holds {@code epoch}) the durable set of commit records; once it is durable, {@link
     * Recorded}{@code (term, epoch)} is delivered to the service.
     */
    void recordCommit(long term, long epoch, SortedSet<Long> pending);

    /** Makes {@code pending} the durable set (an acknowledged epoch was dropped from it); no completion message. */
    void forget(SortedSet<Long> pending);

    /** The commit records left by earlier terms, read when this term's instance was created (epoch ids, ascending). */
    SortedSet<Long> pending();

    /** An epoch's commit record is durable: the service of term {@code term} may send its decision. */
    record Recorded(long term, long epoch) implements org.tebaldi.core.runtime.ControlMessage {
    }
}
