package org.tebaldi.core.history;

import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.TxnIds;

/**
 * The merged record of one run: every node's {@link HistoryLog} combined and indexed for the serializability
 * check (dissertation §2.2.3; Adya 1999). Immutable once built by {@link #merge}.
 *
 * <p>Transactions and keys get dense indices ({@code int}, 0-based): transaction index {@link #INITIAL} (0) is
 * always the initial load T0, the others are in order of first appearance. Reads are held column-wise in four
 * {@code int} arrays (16 bytes per read), the final write sequence number of each (writer, key) pair and the
 * version orders in primitive structures, so a history of ~1M transactions and ~20M reads fits in well under a
 * gigabyte besides the logs themselves.
 *
 * <p>A transaction whose outcome was never logged is {@link TxnStatus#UNFINISHED}. Problems found while merging
 * (conflicting outcomes or version orders for the same transaction or key in different logs, invalid sequence
 * numbers, an outcome logged for T0) are listed by {@link #recordProblems()}; the first record wins.
 */
public final class History implements TxnNames {
    /** Dense index of the initial transaction T0 (transaction id 0). */
    public static final int INITIAL = 0;

    private final long[] txnIds;
    private final byte[] status;
    private final int[] typeOf;
    private final String[] types;
    private final LongIntHashMap txnIndex;
    private final int[] statusCounts;
    private final Key[] keys;
    private final Map<Key, Integer> keyIndex;
    private final int[] readReader;
    private final int[] readKey;
    private final int[] readWriter;
    private final int[] readSeq;
    private final LongIntHashMap finalSeq;
    private final BitSet hasOrder;
    private final int[] orderStart;
    private final int[] orderTxns;
    private final List<String> problems;

    History(long[] txnIds, byte[] status, int[] typeOf, String[] types, LongIntHashMap txnIndex, Key[] keys,
            Map<Key, Integer> keyIndex, int[][] reads, LongIntHashMap finalSeq, BitSet hasOrder, int[] orderStart,
            int[] orderTxns, List<String> problems) {
        this.txnIds = txnIds;
        this.status = status;
        this.typeOf = typeOf;
        this.types = types;
        this.txnIndex = txnIndex;
        this.keys = keys;
        this.keyIndex = keyIndex;
        this.readReader = reads[0];
        this.readKey = reads[1];
        this.readWriter = reads[2];
        this.readSeq = reads[3];
        this.finalSeq = finalSeq;
        this.hasOrder = hasOrder;
        this.orderStart = orderStart;
        this.orderTxns = orderTxns;
        this.problems = List.copyOf(problems);
        this.statusCounts = new int[TxnStatus.values().length];
        for (int t = 1; t < txnIds.length; t++) {
            statusCounts[status[t]]++;
        }
    }

    /**
     * Merges the logs of all nodes of a run (data servers and coordinators, any order) into one indexed history.
     * The logs must no longer be appended to. Time and memory are linear in the total number of records.
     *
     * @throws NullPointerException if {@code logs} or one of its elements is null
     * @throws IllegalArgumentException if the record holds more than 2^30 distinct keys
     */
    public static History merge(Collection<HistoryLog> logs) {
        return HistoryMerger.merge(logs);
    }

    /** Number of transactions known (dense indices {@code 0 .. txnCount()-1}), including T0. */
    public int txnCount() {
        return txnIds.length;
    }

    /** The transaction id (see {@link TxnIds}) of dense index {@code txn}. */
    public long txnId(int txn) {
        return txnIds[txn];
    }

    /** The dense index of transaction id {@code id}, or -1 if the record never mentions it. */
    public int txnIndex(long id) {
        return txnIndex.get(id, -1);
    }

    /** Outcome of dense transaction {@code txn}; T0 is committed. */
    public TxnStatus status(int txn) {
        return TxnStatus.values()[status[txn]];
    }

    /** Whether dense transaction {@code txn} committed (always true for T0). */
    public boolean committed(int txn) {
        return status[txn] == TxnStatus.COMMITTED.ordinal();
    }

    /** Transaction type logged with the outcome of dense transaction {@code txn}, or null if unknown. */
    public String type(int txn) {
        int t = typeOf[txn];
        return t < 0 ? null : types[t];
    }

    /** {@code txn} formatted for messages: {@code T1.5(NewOrder)}, or just {@code T1.5} if the type is unknown. */
    public String label(int txn) {
        String t = type(txn);
        String id = TxnIds.format(txnIds[txn]);
        return t == null ? id : id + "(" + t + ")";
    }

    /** Number of committed transactions, not counting T0. */
    public int committedCount() {
        return statusCounts[TxnStatus.COMMITTED.ordinal()];
    }

    /** Number of aborted transactions. */
    public int abortedCount() {
        return statusCounts[TxnStatus.ABORTED.ordinal()];
    }

    /** Number of transactions mentioned in the record without a logged outcome. */
    public int unfinishedCount() {
        return statusCounts[TxnStatus.UNFINISHED.ordinal()];
    }

    /** Number of distinct keys mentioned (dense indices {@code 0 .. keyCount()-1}). */
    public int keyCount() {
        return keys.length;
    }

    /** The key of dense index {@code key}. */
    public Key key(int key) {
        return keys[key];
    }

    /** The dense index of {@code key}, or -1 if the record never mentions it. */
    public int keyIndex(Key key) {
        Integer k = keyIndex.get(key);
        return k == null ? -1 : k;
    }

    /** Number of reads recorded, by all transactions whatever their outcome. */
    public int readCount() {
        return readReader.length;
    }

    /** Dense index of the transaction that did read {@code read} ({@code 0 .. readCount()-1}). */
    public int readReader(int read) {
        return readReader[read];
    }

    /** Dense index of the key of read {@code read}. */
    public int readKey(int read) {
        return readKey[read];
    }

    /** Dense index of the transaction whose version read {@code read} returned. */
    public int readWriter(int read) {
        return readWriter[read];
    }

    /** The writer's write sequence number (1-based) of the version read {@code read} returned. */
    public int readWriteSeq(int read) {
        return readSeq[read];
    }

    /** The highest write sequence number logged for dense {@code writer} on dense {@code key}; 0 if none. */
    public int finalWriteSeq(int writer, int key) {
        return finalSeq.get(pair(writer, key), 0);
    }

    /** Number of distinct (writer, key) pairs with a logged write. */
    public int writtenPairCount() {
        return finalSeq.size();
    }

    /** Calls {@code action} once per (writer, key) pair with a logged write, in no particular order. */
    public void forEachFinalWrite(FinalWriteConsumer action) {
        finalSeq.forEach((p, seq) -> action.accept((int) (p >>> 32), (int) p, seq));
    }

    /** Receives (dense writer, dense key, final write sequence number) from {@link #forEachFinalWrite}. */
    @FunctionalInterface
    public interface FinalWriteConsumer {
        /** One written pair. */
        void accept(int writer, int key, int finalWriteSeq);
    }

    /** Whether some data server logged a version order for dense {@code key}. */
    public boolean hasVersionOrder(int key) {
        return hasOrder.get(key);
    }

    /** Length of the logged version order of dense {@code key}; 0 if none was logged. */
    public int versionOrderLength(int key) {
        return orderStart[key + 1] - orderStart[key];
    }

    /** Dense writer at position {@code i} (0 = oldest) of the logged version order of dense {@code key}. */
    public int versionOrderAt(int key, int i) {
        if (i < 0 || i >= versionOrderLength(key)) {
            throw new IndexOutOfBoundsException("position " + i + " of version order of " + keys[key]);
        }
        return orderTxns[orderStart[key] + i];
    }

    /** The logged version order of {@code key} as transaction ids, oldest first; null if none was logged. */
    public long[] versionOrder(Key key) {
        int k = keyIndex(key);
        if (k < 0 || !hasOrder.get(k)) {
            return null;
        }
        long[] ids = new long[versionOrderLength(k)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = txnIds[orderTxns[orderStart[k] + i]];
        }
        return ids;
    }

    /** Inconsistencies found while merging (human-readable, in discovery order). */
    public List<String> recordProblems() {
        return problems;
    }

    static long pair(int txn, int key) {
        return ((long) txn << 32) | (key & 0xffffffffL);
    }
}
