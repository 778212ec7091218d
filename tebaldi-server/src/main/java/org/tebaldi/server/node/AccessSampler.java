package org.tebaldi.server.node;

import org.tebaldi.core.model.Key;

/**
 * Receives the record accesses of sampled transactions at the data servers, for contention statistics
 * (Zamanian et al., SIGMOD 2020, §4.1: "randomly samples from the running transactions"). A data server asks {@link
 * #sampled} for every operation it starts and reports the access only if it says yes; the decision must depend on
 * the transaction id alone, so every data server samples the same transactions and their read and write sets stay
 * whole. Called from each data server's actor thread: implementations must be thread-safe.
 */
public interface AccessSampler {
    /** Whether transaction {@code txnId}'s accesses are sampled (cheap; a function of the id only). */
    boolean sampled(long txnId);

    /**
     * A sampled transaction's operation on {@code key} started at data server {@code ds}.
     *
     * @param write whether the operation writes or takes an exclusive lock (write, update, upsert, delete,
     *              read-for-update)
     */
    void access(int ds, long txnId, Key key, boolean write);
}
