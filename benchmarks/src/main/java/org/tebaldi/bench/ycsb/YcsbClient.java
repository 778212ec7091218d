package org.tebaldi.bench.ycsb;

import java.util.SplittableRandom;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.TxnRequest;

/**
 * One YCSB client: each transaction has {@code opsPerTxn} operations on distinct Zipf-drawn keys (in draw order,
 * not sorted), each a read with probability {@code readRatio}, else an update; with a separate write skew
 * ({@code writeTheta}) an update's key is drawn from its own distribution. The updates' balance deltas sum to
 * zero: each but the last adds 1..10, the last subtracts their sum (a single update adds 0). Updated field values
 * are fresh random letters. Not thread-safe (one logical client).
 */
final class YcsbClient implements ClientSource {
    private final YcsbConfig cfg;
    private final ZipfianGenerator zipf;
    private final ZipfianGenerator writeZipf;
    private final SplittableRandom random;

    YcsbClient(YcsbConfig cfg, ZipfianGenerator zipf, ZipfianGenerator writeZipf, long seed) {
        this.cfg = cfg;
        this.zipf = zipf;
        this.writeZipf = writeZipf;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public TxnRequest next() {
        int m = cfg.opsPerTxn();
        long[] keys = new long[m];
        boolean[] update = new boolean[m];
        long[] deltas = new long[m];
        String[] values = new String[m];
        int last = -1;
        long sum = 0;
        for (int i = 0; i < m; i++) {
            if (writeZipf == zipf) {
                keys[i] = distinctKey(zipf, keys, i);
                update[i] = random.nextDouble() >= cfg.readRatio();
            } else {
                update[i] = random.nextDouble() >= cfg.readRatio();
                keys[i] = distinctKey(update[i] ? writeZipf : zipf, keys, i);
            }
            values[i] = "";
            if (update[i]) {
                values[i] = letters(cfg.fieldLength());
                deltas[i] = 1 + random.nextInt(10);
                sum += deltas[i];
                last = i;
            }
        }
        if (last >= 0) {
            deltas[last] -= sum; // the deltas sum to zero
        }
        return TxnRequest.procedure(YcsbTxn.NAME, YcsbTxn.inputs(keys, update, deltas, values));
    }

    /** A Zipf key not among {@code keys[0 .. n-1]}, redrawn until distinct (as DBx1000 does). */
    private long distinctKey(ZipfianGenerator from, long[] keys, int n) {
        while (true) {
            long k = from.next(random);
            boolean seen = false;
            for (int j = 0; j < n && !seen; j++) {
                seen = keys[j] == k;
            }
            if (!seen) {
                return k;
            }
        }
    }

    private String letters(int n) {
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(c);
    }
}
