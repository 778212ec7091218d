package org.tebaldi.core.history;

import org.tebaldi.core.model.Key;

/**
 * What a cycle report needs to name the nodes and keys of a {@link Dsg}: dense transaction index to id and label,
 * dense key index to key. Implemented by {@link History} (batch checking) and by each pass of
 * {@link IncrementalChecker} (streamed checking).
 */
interface TxnNames {
    /** The transaction id ({@link org.tebaldi.core.txn.TxnIds}) of dense node {@code txn}. */
    long txnId(int txn);

    /** {@code txn} formatted for messages, e.g. {@code T1.5(NewOrder)}. */
    String label(int txn);

    /** The key of dense index {@code key}. */
    Key key(int key);
}
