package org.tebaldi.server.msg;

/**
 * Identity of a transaction attempt as data servers need it: id, type, leaf group and instance (its path π in
 * the CC tree), and wait-die priority (first attempt's begin time, µs).
 */
public record TxnHeader(long txnId, int typeId, int leaf, long instance, long priority) {
}
