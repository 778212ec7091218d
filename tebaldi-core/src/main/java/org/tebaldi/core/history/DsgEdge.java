package org.tebaldi.core.history;

import org.tebaldi.core.model.Key;

/**
 * One edge of a reported DSG cycle: {@code from} must precede {@code to} because of an access to {@code key}
 * (dissertation §2.2.3). {@code from} and {@code to} are transaction ids ({@link org.tebaldi.core.txn.TxnIds}).
 */
public record DsgEdge(long from, long to, EdgeType type, Key key) {
}
