package org.tebaldi.core.cc;

/**
 * What every CC part sees of a transaction, at the TC and at a DS: identity, type, group (leaf and instance),
 * priority (older = smaller, kept across retries; wait-die uses it) and one state slot per level of its path
 * π, where the part at depth {@code level} keeps its per-transaction state.
 */
public interface TxnView {
    long id();

    /** Id of the transaction type in the {@link org.tebaldi.core.db.Database}. */
    int typeId();

    /** Node id of the leaf group. */
    int leaf();

    /** Instance value for partition-by-instance leaves, else 0. */
    long instance();

    /** Priority: the begin time of the first attempt, µs (smaller = older). */
    long priority();

    /** The state the part at {@code level} stored, or null. */
    Object state(int level);

    /** Stores per-transaction state for the part at {@code level}. */
    void setState(int level, Object state);
}
