package org.tebaldi.core.history;

import org.tebaldi.core.model.Key;

/**
 * The version order of each key restricted to committed writers, with T0 as the oldest version of every key
 * (implicit when the logged order does not start with it), plus the position of each (writer, key) in it.
 * Building it reports the record inconsistencies of version orders: T0 listed after position 0, a writer
 * listed twice, a writer that did not commit (skipped), a writer without a logged write to the key, and a
 * committed writer of a key missing from the key's order.
 */
final class VersionOrders {
    private final int[] start;
    private final int[] writers;
    private final LongIntHashMap position;

    private VersionOrders(int[] start, int[] writers, LongIntHashMap position) {
        this.start = start;
        this.writers = writers;
        this.position = position;
    }

    /** Number of committed versions of dense {@code key}, T0's included. */
    int length(int key) {
        return start[key + 1] - start[key];
    }

    /** Dense writer of the {@code i}-th committed version of {@code key} (0 = T0). */
    int at(int key, int i) {
        return writers[start[key] + i];
    }

    /** Position of {@code writer}'s version in {@code key}'s committed order, or -1 if it is not there. */
    int position(int writer, int key) {
        return position.get(History.pair(writer, key), -1);
    }

    static VersionOrders build(History h, ViolationCollector out) {
        int keys = h.keyCount();
        long total = keys;
        for (int k = 0; k < keys; k++) {
            total += h.versionOrderLength(k);
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("version orders too large: " + total + " entries");
        }
        int[] start = new int[keys + 1];
        int[] writers = new int[(int) total];
        LongIntHashMap position = new LongIntHashMap((int) total);
        int n = 0;
        for (int k = 0; k < keys; k++) {
            start[k] = n;
            writers[n++] = History.INITIAL;
            position.put(History.pair(History.INITIAL, k), 0);
            Key key = h.key(k);
            int len = h.versionOrderLength(k);
            for (int i = 0; i < len; i++) {
                int w = h.versionOrderAt(k, i);
                long id = h.txnId(w);
                int at = i;
                if (w == History.INITIAL) {
                    if (i > 0) {
                        out.record(() -> "version order of " + key + " lists T0 at position " + at
                                + "; the initial version must be the oldest", 0L);
                    }
                    continue;
                }
                if (position.get(History.pair(w, k), -1) >= 0) {
                    out.record(() -> "version order of " + key + " lists " + h.label(w) + " twice", id);
                    continue;
                }
                if (!h.committed(w)) {
                    out.record(() -> "version order of " + key + " lists " + h.label(w) + ", which "
                            + statusText(h.status(w)), id);
                    continue;
                }
                if (h.finalWriteSeq(w, k) == 0) {
                    out.record(() -> "version order of " + key + " lists " + h.label(w)
                            + ", but no write of it to that key was logged", id);
                }
                position.put(History.pair(w, k), n - start[k]);
                writers[n++] = w;
            }
        }
        start[keys] = n;
        VersionOrders vo = new VersionOrders(start, writers, position);
        h.forEachFinalWrite((w, k, seq) -> {
            if (w != History.INITIAL && h.committed(w) && vo.position(w, k) < 0) {
                out.record(() -> "committed " + h.label(w) + " wrote " + h.key(k) + " (final write #" + seq
                        + ") but is missing from its version order"
                        + (h.hasVersionOrder(k) ? "" : " (no version order was logged for the key)"), h.txnId(w));
            }
        });
        return vo;
    }

    /** "aborted" or "never finished" for messages. */
    static String statusText(TxnStatus s) {
        return s == TxnStatus.ABORTED ? "aborted" : s == TxnStatus.UNFINISHED ? "never finished" : "committed";
    }
}
