package org.tebaldi.core.cc;

/**
 * A dependency as the TC learns it from data servers: transaction {@code txnId} (of type {@code typeId}, in
 * leaf {@code leaf}, instance {@code instance}) is ordered before the owner; reported by the part at depth
 * {@code level}. A parent at depth {@code d} uses the entries with {@code level > d} as its child's
 * dependency set (dissertation §4.3.1).
 */
public record TxnDep(long txnId, int typeId, int leaf, long instance, int level) {
}
