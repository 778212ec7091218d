package org.tebaldi.server.msg;

import org.tebaldi.core.txn.Op;

/**
 * TC → DS, execution phase: one operation, carrying the metadata of every CC level on the path (null when no
 * level has any) so the DS runs all levels' DS parts in one round trip (dissertation §4.5.2).
 */
public record ExecRequest(TxnHeader header, int opId, Op op, Object[] meta) {
}
