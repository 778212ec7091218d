package org.tebaldi.bench.ycsb;

import java.util.SplittableRandom;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.TxnRequest;

/**
 * One YCSB client: each transaction has {@code opsPerTxn} operations on distinct Zipf-drawn keys (in draw order,
 * not sorted), each a read with probability {@code readRatio}, else an update; with a separate write skew
 * ({@code writeTheta}) an update's key is drawn from its own distribution. The updates' balance deltas sum to
 * zero: each but the last adds 1..10, the last subtracts their sum (a single update adds 0). Updated field values
 * are fresh random letters.
 *
 * <p>Partitioned ({@link YcsbConfig#partitioned}, COCO §7.1): the client has home partition {@code home}; a key is
 * a Zipf-drawn row of one partition ({@code row * partitions + partition}). A single-partition transaction draws
 * every key from the home partition; a distributed one (with probability {@code distributed}%) draws each key's
 * partition uniformly, with at least one key (the last) in another partition. Not thread-safe (one logical client).
 */
final class YcsbClient implements ClientSource {
    private final YcsbConfig cfg;
    private final ZipfianGenerator zipf;
    private final ZipfianGenerator writeZipf;
    private final SplittableRandom random;
    private final int home;

    /**
     * @param zipf      over the whole table, or over one partition's rows when partitioned
     * @param writeZipf the same for the keys of updates ({@code zipf} itself when reads and writes share the skew)
     */
    YcsbClient(YcsbConfig cfg, ZipfianGenerator zipf, ZipfianGenerator writeZipf, int home, long seed) {
        this.cfg = cfg;
        this.zipf = zipf;
        this.writeZipf = writeZipf;
        this.home = home;
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
        boolean distributed = cfg.partitioned() && random.nextInt(100) < cfg.distributed();
        boolean away = false;
        for (int i = 0; i < m; i++) {
            int part = home;
            if (distributed) {
                part = random.nextInt(cfg.partitions());
                if (i == m - 1 && !away && part == home) {
                    part = (home + 1 + random.nextInt(cfg.partitions() - 1)) % cfg.partitions();
                }
                away |= part != home;
            }
            if (writeZipf == zipf) {
                keys[i] = distinctKey(zipf, keys, i, part);
                update[i] = random.nextDouble() >= cfg.readRatio();
            } else {
                update[i] = random.nextDouble() >= cfg.readRatio();
                keys[i] = distinctKey(update[i] ? writeZipf : zipf, keys, i, part);
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

    /**
     * A key drawn from {@code from} not among {@code keys[0 .. n-1]}, redrawn until distinct (as DBx1000 does); in
     * partition {@code part} when partitioned.
     */
    private long distinctKey(ZipfianGenerator from, long[] keys, int n, int part) {
        while (true) {
            long k = cfg.partitioned() ? from.next(random) * cfg.partitions() + part : from.next(random);
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
