package org.tebaldi.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.core.txn.Inputs;

/** {@code writeTheta}: updates draw their keys from their own Zipf distribution (Sundial §6.4.2). */
class YcsbWriteSkewTest {
    /** The largest share of reads (or updates) that went to one key, over many transactions. */
    private static double[] hottestShare(YcsbConfig cfg) {
        YcsbWorkload w = new YcsbWorkload(cfg);
        ClientSource c = w.newClient(0, 7);
        int m = cfg.opsPerTxn();
        long[] reads = new long[cfg.records()];
        long[] updates = new long[cfg.records()];
        long nr = 0;
        long nu = 0;
        for (int t = 0; t < 3_000; t++) {
            Inputs in = c.next().inputs();
            for (int i = 0; i < m; i++) {
                int k = (int) in.getLong(i);
                if (in.getLong(m + i) == 1L) {
                    updates[k]++;
                    nu++;
                } else {
                    reads[k]++;
                    nr++;
                }
            }
        }
        long maxR = 0;
        long maxU = 0;
        for (int k = 0; k < cfg.records(); k++) {
            maxR = Math.max(maxR, reads[k]);
            maxU = Math.max(maxU, updates[k]);
        }
        return new double[] {(double) maxR / nr, (double) maxU / nu};
    }

    @Test
    void skewedReadsUniformWrites() {
        double[] s = hottestShare(new YcsbConfig(1_000, 0.99, 0.5, 4, 1, 4, 0.0));
        assertTrue(s[0] > 0.05, "the hottest key takes a large share of the reads: " + s[0]);
        assertTrue(s[1] < 0.01, "updates are spread uniformly: " + s[1]);
    }

    @Test
    void sameSkewByDefault() {
        YcsbConfig c = new YcsbConfig(1_000, 0.99, 0.5, 4, 1, 4);
        assertEquals(c.theta(), c.writeTheta());
        double[] s = hottestShare(c);
        assertTrue(s[1] > 0.05, "updates as skewed as reads: " + s[1]);
        assertThrows(IllegalArgumentException.class, () -> new YcsbConfig(1_000, 0.9, 0.5, 4, 1, 4, 2.5));
    }
}
