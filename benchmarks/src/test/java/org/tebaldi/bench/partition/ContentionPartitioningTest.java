package org.tebaldi.bench.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.server.node.Partitioner;
import org.tebaldi.server.node.Placement;

/**
 * Chiller's partitioning (§4): the contention likelihood, the star graph of a tiny workload and its METIS file,
 * METIS's output turned into a placement with only hot records in the lookup table, and that placement beating hash
 * partitioning on a skewed toy workload (no transaction's hot records split across servers). The METIS tests run
 * {@code scripts/install-metis} when gpmetis is missing and are skipped, with its message, only if it cannot
 * install it.
 */
class ContentionPartitioningTest {
    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, -1, false, Catalog.longCol("v"));

    private Key k(long i) {
        return Key.of(t, i);
    }

    private static ContentionStats.Txn txn(Object... keyAndWrite) {
        Map<Key, Boolean> m = new LinkedHashMap<>();
        for (int i = 0; i < keyAndWrite.length; i += 2) {
            m.put((Key) keyAndWrite[i], (Boolean) keyAndWrite[i + 1]);
        }
        return new ContentionStats.Txn(m);
    }

    @Test
    void contentionLikelihoodIsThePapersFormula() {
        assertEquals(0, ContentionModel.likelihood(0, 5), 1e-12, "no writes, no conflict");
        for (double w : new double[] {0.1, 1, 3}) {
            for (double r : new double[] {0, 0.5, 2}) {
                double i = (1 - Math.exp(-w) * (1 + w)) * Math.exp(-r);
                double ii = (1 - Math.exp(-w)) * (1 - Math.exp(-r));
                assertEquals(i + ii, ContentionModel.likelihood(w, r), 1e-12);
            }
        }
        assertTrue(ContentionModel.likelihood(1, 1) > ContentionModel.likelihood(1, 0), "reads add contention");
    }

    @Test
    void starGraphOfATinyWorkload() throws IOException {
        List<ContentionStats.Txn> txns = List.of(txn(k(1), true, k(2), false), txn(k(1), true, k(3), true),
                txn(k(3), false));
        Map<Key, long[]> c = ContentionModel.counts(txns);
        assertEquals(List.of(0L, 2L), List.of(c.get(k(1))[0], c.get(k(1))[1]));
        Map<Key, Double> p = Map.of(k(1), 0.5, k(2), 0.0, k(3), 0.25);
        StarGraph g = new StarGraph(txns, p);
        assertEquals(3, g.records());
        assertEquals(3, g.transactions());
        assertEquals(5, g.edges(), "one edge per (transaction, record): a star each, no record-record edges");
        StringWriter w = new StringWriter();
        g.writeMetis(w);
        assertEquals(String.join("\n",
                "6 5 011",
                "2 4 500 5 500",   // record 1: two writes; t-vertices 4 and 5
                "1 4 1",           // record 2: P_c 0 -> the minimum weight 1
                "2 5 250 6 250",   // record 3
                "0 1 500 2 1",     // transaction 1's star
                "0 1 500 3 250",
                "0 3 250") + "\n", w.toString());
    }

    private static void assumeMetis() {
        try {
            Metis.ensureInstalled();
        } catch (IOException e) {
            Assumptions.assumeTrue(false, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Assumptions.assumeTrue(false, "interrupted");
        }
    }

    /**
     * Ten pairs of hot records, each pair written together by 20 transactions that also touch a cold record of their
     * own; cold records are hashed. Stats at sampling rate 1 over 1 s, lock window 100 ms.
     */
    private ContentionStats toyStats() {
        ContentionStats s = new ContentionStats(1);
        long id = 0;
        for (int pair = 0; pair < 10; pair++) {
            for (int i = 0; i < 20; i++) {
                id++;
                s.access(0, id, k(2 * pair), true);
                s.access(0, id, k(2 * pair + 1), true);
                s.access(0, id, k(1000 + id), true);
            }
        }
        s.window(1_000_000);
        return s;
    }

    @Test
    void metisOutputBecomesAPlacementOfTheHotRecordsOnly() throws Exception {
        assumeMetis();
        Partitioner hash = Partitioner.byTable(cat, 2);
        Placement p = new ContentionPartitioner(100_000, 0.05, 30).place(toyStats(), 2, hash);
        assertEquals(20, p.hotKeys().size(), "the 20 hot records, not the 200 cold ones");
        for (int i = 0; i < 20; i++) {
            assertTrue(p.hot(k(i)));
        }
        assertFalse(p.hot(k(1001)));
        assertEquals(hash.partition(k(1001)), p.partition(k(1001)), "cold records follow the default partitioner");
        long[] perServer = new long[2];
        p.hotKeys().values().forEach(s -> perServer[s]++);
        assertTrue(perServer[0] >= 6 && perServer[1] >= 6, "balanced: " + perServer[0] + "/" + perServer[1]);
    }

    @Test
    void lookupTableBeatsHashOnASkewedToyWorkload() throws Exception {
        assumeMetis();
        Partitioner hash = Partitioner.byTable(cat, 2);
        Placement p = new ContentionPartitioner(100_000, 0.05, 30).place(toyStats(), 2, hash);
        int splitUnderHash = 0;
        int splitUnderPlacement = 0;
        for (int pair = 0; pair < 10; pair++) {
            splitUnderHash += hash.partition(k(2 * pair)) != hash.partition(k(2 * pair + 1)) ? 1 : 0;
            splitUnderPlacement += p.partition(k(2 * pair)) != p.partition(k(2 * pair + 1)) ? 1 : 0;
        }
        assertEquals(0, splitUnderPlacement, "every transaction's hot records share one inner host");
        assertTrue(splitUnderHash > 0, "hash partitioning splits some pairs (" + splitUnderHash + ")");
    }

    @Test
    void statsFileRoundTrip() throws Exception {
        ContentionStats s = toyStats();
        java.nio.file.Path f = java.nio.file.Files.createTempFile("stats", ".json");
        try {
            s.write(f, cat);
            ContentionStats back = ContentionStats.read(f, cat);
            assertEquals(s.txns().size(), back.txns().size());
            assertEquals(s.windowMicros(), back.windowMicros());
            Map<Key, long[]> a = ContentionModel.counts(s.txns());
            Map<Key, long[]> b = ContentionModel.counts(back.txns());
            Map<Key, List<Long>> la = new HashMap<>();
            a.forEach((key, v) -> la.put(key, List.of(v[0], v[1])));
            Map<Key, List<Long>> lb = new HashMap<>();
            b.forEach((key, v) -> lb.put(key, List.of(v[0], v[1])));
            assertEquals(la, lb);
        } finally {
            java.nio.file.Files.deleteIfExists(f);
        }
    }

    @Test
    void samplingIsAFunctionOfTheTransactionIdAndNearTheRate() {
        ContentionStats s = new ContentionStats(0.1);
        int n = 0;
        List<Boolean> first = new ArrayList<>();
        for (long id = 1; id <= 100_000; id++) {
            boolean b = s.sampled(id);
            n += b ? 1 : 0;
            if (id <= 100) {
                first.add(b);
            }
        }
        assertTrue(n > 9_000 && n < 11_000, n + " of 100000 sampled at rate 0.1");
        for (long id = 1; id <= 100; id++) {
            assertEquals(first.get((int) id - 1), new ContentionStats(0.1).sampled(id), "same answer everywhere");
        }
    }
}
