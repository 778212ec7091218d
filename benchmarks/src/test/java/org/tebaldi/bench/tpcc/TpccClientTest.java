package org.tebaldi.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.txn.Inputs;

/** Input generation (TPC-C §2.4.1–§2.8.1 as adapted in dissertation §4.6): mix, home warehouse, remote rates. */
class TpccClientTest {
    private static final int DRAWS = 100_000;

    private static TpccClient client(TpccConfig cfg, int index) {
        return new TpccClient(cfg, NuRandConstants.fromSeed(cfg.seed()), index, 99, () -> 5L);
    }

    private static Map<String, Integer> mix(TpccConfig cfg) {
        TpccClient c = client(cfg, 0);
        Map<String, Integer> n = new HashMap<>();
        for (int i = 0; i < DRAWS; i++) {
            n.merge(c.next().type(), 1, Integer::sum);
        }
        return n;
    }

    @Test
    void standardMixProportions() {
        Map<String, Integer> n = mix(TpccConfig.spec(10));
        assertEquals(5, n.size());
        assertShare(n, NewOrder.NAME, 0.45);
        assertShare(n, Payment.NAME, 0.43);
        assertShare(n, Delivery.NAME, 0.04);
        assertShare(n, OrderStatus.NAME, 0.04);
        assertShare(n, StockLevel.NAME, 0.04);
    }

    @Test
    void hotItemMixProportions() {
        Map<String, Integer> n = mix(TpccConfig.spec(10).withMix(TpccMix.HOT_ITEM));
        assertEquals(6, n.size());
        assertShare(n, NewOrder.NAME, 0.418);
        assertShare(n, Payment.NAME, 0.418);
        for (String t : new String[] {Delivery.NAME, OrderStatus.NAME, StockLevel.NAME, HotItem.NAME}) {
            assertShare(n, t, 0.041);
        }
        assertEquals(TpccMix.HOT_ITEM, TpccMix.parse("hot-item"));
        assertThrows(IllegalArgumentException.class, () -> TpccMix.parse("tpce"));
    }

    private static void assertShare(Map<String, Integer> n, String type, double share) {
        double got = n.getOrDefault(type, 0) / (double) DRAWS;
        assertEquals(share, got, 0.006, type);
    }

    @Test
    void clientsAreBoundToHomeWarehousesAndStockLevelDistricts() {
        TpccConfig cfg = TpccConfig.spec(4);
        for (int i = 0; i < 12; i++) {
            TpccClient c = client(cfg, i);
            assertEquals(i % 4 + 1, c.homeWarehouse());
            for (int k = 0; k < 50; k++) {
                TpccRequest r = c.next();
                assertEquals(i % 4 + 1, r.inputs().getLong(0), r.type());
                if (r.type().equals(StockLevel.NAME)) {
                    assertEquals(i / 4 + 1, r.inputs().getLong(1));
                }
            }
        }
    }

    @Test
    void newOrderInputsFollowTheSpec() {
        TpccConfig cfg = TpccConfig.spec(10);
        TpccClient c = client(cfg, 3);
        long lines = 0;
        long remote = 0;
        for (int i = 0; i < 20_000; i++) {
            Inputs in = c.next(NewOrder.NAME).inputs();
            long[] items = (long[]) in.get(3);
            long[] supply = (long[]) in.get(4);
            long[] qty = (long[]) in.get(5);
            assertTrue(items.length >= 5 && items.length <= 15);
            long d = in.getLong(1);
            long cid = in.getLong(2);
            assertTrue(d >= 1 && d <= 10 && cid >= 1 && cid <= 3000);
            Set<Long> distinct = new HashSet<>();
            for (int k = 0; k < items.length; k++) {
                assertTrue(items[k] >= 1 && items[k] <= 100_000);
                assertTrue(distinct.add(items[k]), "items of one order are distinct");
                assertTrue(qty[k] >= 1 && qty[k] <= 10);
                assertTrue(supply[k] >= 1 && supply[k] <= 10);
                remote += supply[k] != 4 ? 1 : 0;
                lines++;
            }
        }
        double rate = remote / (double) lines;
        assertTrue(rate > 0.007 && rate < 0.013, "remote line rate " + rate);
    }

    @Test
    void paymentInputsAreRemoteFifteenPercentAndHaveUniqueHistorySequences() {
        TpccConfig cfg = TpccConfig.spec(10);
        TpccClient a = client(cfg, 1);
        TpccClient b = client(cfg, 11);
        Set<Long> seqs = new HashSet<>();
        int remote = 0;
        for (int i = 0; i < 10_000; i++) {
            for (TpccClient c : new TpccClient[] {a, b}) {
                Inputs in = c.next(Payment.NAME).inputs();
                assertEquals(2L, in.getLong(0));
                remote += in.getLong(2) != 2L ? 1 : 0;
                double amount = (Double) in.get(5);
                assertTrue(amount >= 1.0 && amount <= 5000.0);
                assertTrue(seqs.add(in.getLong(6)), "h_seq unique across clients");
                assertTrue(in.getLong(6) != 0, "0 is reserved for loaded history rows");
            }
        }
        assertTrue(remote > 2600 && remote < 3400, "remote payments " + remote + " of 20000");
    }

    @Test
    void oneWarehouseMeansNothingRemote() {
        TpccClient c = client(TpccConfig.spec(1), 0);
        for (int i = 0; i < 5_000; i++) {
            TpccRequest r = c.next();
            if (r.type().equals(Payment.NAME)) {
                assertEquals(1L, r.inputs().getLong(2));
            } else if (r.type().equals(NewOrder.NAME)) {
                for (long w : (long[]) r.inputs().get(4)) {
                    assertEquals(1L, w);
                }
            }
        }
    }

    @Test
    void requestsMatchTheRegisteredTypes() {
        TpccBenchmark b = new TpccBenchmark(TpccConfig.spec(2).withMix(TpccMix.HOT_ITEM));
        TpccClient c = b.newClient(0, 1);
        for (String type : TpccMix.HOT_ITEM.types()) {
            TpccRequest r = c.next(type);
            TxnType t = b.database().type(type);
            assertEquals(t.params().size(), r.inputs().size(), type);
            assertEquals(t.isProcedure(), r.isProcedure(), type);
            if (t.isProcedure()) {
                assertNull(r.body());
                t.procedure().start(r.inputs());
            } else {
                assertNotNull(r.body());
                assertTrue(t.readOnly());
            }
        }
        assertEquals(TpccMix.STANDARD.types(), new TpccBenchmark(TpccConfig.spec(1)).database().types().stream()
                .map(TxnType::name).toList());
        assertThrows(IllegalArgumentException.class, () -> new TpccBenchmark(TpccConfig.spec(1)).newClient(0, 1)
                .next(HotItem.NAME));
    }

    @Test
    void sameSeedSameInputs() {
        TpccConfig cfg = TpccConfig.spec(3);
        TpccClient x = client(cfg, 2);
        TpccClient y = client(cfg, 2);
        for (int i = 0; i < 100; i++) {
            assertEquals(x.next().inputs().toString(), y.next().inputs().toString());
        }
    }
}
