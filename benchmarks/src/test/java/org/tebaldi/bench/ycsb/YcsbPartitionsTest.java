package org.tebaldi.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.WorkloadOptions;
import org.tebaldi.core.config.ConfigException;

/** COCO's YCSB (Lu et al. VLDB 2021, §7.1): home partitions and a share of multi-partition transactions. */
class YcsbPartitionsTest {
    private static YcsbWorkload ycsb(Map<String, Object> o) {
        return (YcsbWorkload) new YcsbFactory().create(WorkloadOptions.of("ycsb", o));
    }

    /** Per transaction, the set of partitions (key mod 4) its keys fall in. */
    private static int distributedOf(ClientSource c, int home, int n) {
        int distributed = 0;
        for (int i = 0; i < n; i++) {
            org.tebaldi.core.txn.Inputs in = c.next().inputs();
            Set<Long> parts = new HashSet<>();
            for (int j = 0; j < 10; j++) {
                long k = in.getLong(j);
                assertTrue(k >= 0 && k < 10_000, "key " + k);
                parts.add(k % 4);
            }
            assertTrue(parts.contains((long) home) || parts.size() > 1, "a transaction touches its home partition "
                    + "unless distributed");
            distributed += parts.size() > 1 ? 1 : 0;
            if (parts.size() == 1) {
                assertTrue(parts.contains((long) home), "a single-partition transaction stays home: " + parts);
            }
        }
        return distributed;
    }

    @Test
    void aShareOfTransactionsSpansPartitionsTheRestStayHome() {
        YcsbWorkload w = ycsb(Map.of("records", 10_000, "opsPerTxn", 10, "readRatio", 0.8, "partitions", 4,
                "distributed", 20));
        int d = distributedOf(w.newClient(6, 1), 2, 5_000);
        assertTrue(d > 900 && d < 1_100, "distributed " + d + " of 5000 (20%)");
        assertTrue(distributedOf(ycsb(Map.of("records", 10_000, "opsPerTxn", 10, "partitions", 4, "distributed", 0))
                .newClient(1, 1), 1, 2_000) == 0, "0%: every transaction single-partition");
        assertTrue(distributedOf(ycsb(Map.of("records", 10_000, "opsPerTxn", 10, "partitions", 4, "distributed",
                100)).newClient(3, 1), 3, 2_000) == 2_000, "100%: every transaction spans partitions");
    }

    @Test
    void badValuesAreRefusedWithOneMessage() {
        ConfigException e = assertThrows(ConfigException.class, () -> ycsb(Map.of("distributed", 120)));
        assertTrue(e.getMessage().contains("distributed"), e.getMessage());
        ConfigException p = assertThrows(ConfigException.class, () -> ycsb(Map.of("distributed", 20,
                "partitions", 1)));
        assertTrue(p.getMessage().contains("partitions"), p.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new YcsbConfig(100, 0.5, 0.5, 10, 1, 1, 8, 10));
    }
}
