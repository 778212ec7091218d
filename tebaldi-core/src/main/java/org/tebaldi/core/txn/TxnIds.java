package org.tebaldi.core.txn;

/**
 * Transaction ids: {@code (tcIndex + 1) << 40 | sequence}, unique per attempt (a retry gets a new id). Id 0 is
 * the virtual initial transaction that loaded the data. The coordinator of any id is computable, which the
 * TC-to-TC messages of runtime pipelining use.
 */
public final class TxnIds {
    private static final int SHIFT = 40;

    private TxnIds() {
    }

    /** The id of the {@code seq}-th attempt started by coordinator {@code tcIndex}. */
    public static long make(int tcIndex, long seq) {
        if (seq <= 0 || seq >= (1L << SHIFT)) {
            throw new IllegalArgumentException("sequence out of range: " + seq);
        }
        return ((long) (tcIndex + 1) << SHIFT) | seq;
    }

    /** Index of the coordinator that started {@code txnId}; -1 for the initial transaction. */
    public static int coordinator(long txnId) {
        return (int) (txnId >>> SHIFT) - 1;
    }

    /** Short form for messages, e.g. {@code T1.42}. */
    public static String format(long txnId) {
        return txnId == 0 ? "T0" : "T" + coordinator(txnId) + "." + (txnId & ((1L << SHIFT) - 1));
    }
}
