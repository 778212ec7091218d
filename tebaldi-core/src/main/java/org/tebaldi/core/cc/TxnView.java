package org.tebaldi.core.cc;

/**
 * What every CC part sees of a transaction, at the coordinator and at a data server: identity, type, group (leaf
 * and instance), priority (older = smaller, kept across retries; wait-die uses it), and the per-level state each
 * part keeps for it (docs/architecture.md, "The CC contract").
 *
 * <p>A part receives its own state for the transaction being handled as a typed argument ({@link TcPart},
 * {@link DsPart}); {@link #state(int, Class)} is for looking at <em>another</em> transaction's state (e.g. whether
 * a writer is prepared), typed and checked.
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

    /**
     * The state the part at {@code level} of this transaction's path keeps for it, if it is of {@code type}.
     *
     * @return the state, or null if the part keeps none, has not created it yet, or keeps another type (the
     *         transaction runs under another tree's part at that level, e.g. during an online update)
     */
    <S> S state(int level, Class<S> type);
}
