package org.tebaldi.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/** The loader: exact row counts per table, spec values and distributions, determinism and progress (TPC-C §4.3). */
class TpccLoaderTest {
    @Test
    void rowCountsMatchTheFormulasAtSmallScale() {
        TpccConfig cfg = new TpccConfig(2, 50, 30, 40, TpccMix.STANDARD, 3L);
        MapDb db = new MapDb(cfg);
        TpccSchema s = db.s;
        long wd = 2 * 10;
        assertEquals(50, db.count(s.item()));
        assertEquals(0, db.count(s.itemStats()));
        assertEquals(2, db.count(s.warehouse()));
        assertEquals(2 * 50, db.count(s.stock()));
        assertEquals(wd, db.count(s.district()));
        assertEquals(wd, db.count(s.districtDeliv()));
        assertEquals(wd * 30, db.count(s.customer()));
        assertEquals(wd * 30, db.count(s.history()));
        assertEquals(wd * 40, db.count(s.oorder()));
        assertEquals(wd * 12, db.count(s.newOrder()), "40 * 900 / 3000 = 12 undelivered per district");
        assertEquals(wd * 30, db.count(s.customerLastOrder()), "every customer has an order when O >= C");
        long sumOlCnt = 0;
        for (Map.Entry<Key, Row> e : db.rows.entrySet()) {
            if (e.getKey().table() == s.oorder().id()) {
                long n = e.getValue().getLong("o_ol_cnt");
                assertTrue(n >= 5 && n <= 15, "o_ol_cnt " + n);
                sumOlCnt += n;
            }
        }
        assertEquals(sumOlCnt, db.count(s.orderLine()));
        TpccLoader loader = db.bench.loader(0);
        assertEquals(sumOlCnt, loader.expectedRowsPerTable().get(TpccSchema.ORDER_LINE));
        assertEquals(db.rows.size(), loader.expectedRows());
        for (TableSchema t : s.catalog().tables()) {
            assertEquals(loader.expectedRowsPerTable().get(t.name()), db.count(t), t.name());
        }
    }

    @Test
    void fewerOrdersThanCustomersIndexesOnlyCustomersWithOrders() {
        MapDb db = new MapDb(new TpccConfig(1, 20, 30, 10, TpccMix.STANDARD, 3L));
        assertEquals(10 * 10, db.count(db.s.customerLastOrder()));
        assertEquals(10 * 3, db.count(db.s.newOrder()));
        assertTrue(db.check().ok(), () -> db.check().summary(10));
    }

    @Test
    void specScaleExpectedCountsFollowTheSpecification() {
        TpccBenchmark b = new TpccBenchmark(TpccConfig.spec(2));
        Map<String, Long> n = b.loader(0).expectedRowsPerTable();
        assertEquals(100_000L, n.get("item"));
        assertEquals(2L, n.get("warehouse"));
        assertEquals(200_000L, n.get("stock"));
        assertEquals(20L, n.get("district"));
        assertEquals(60_000L, n.get("customer"));
        assertEquals(60_000L, n.get("history"));
        assertEquals(60_000L, n.get("oorder"));
        assertEquals(18_000L, n.get("new_order"));
        assertEquals(60_000L, n.get("customer_last_order"));
        long lines = n.get("order_line");
        assertTrue(lines >= 5 * 60_000L && lines <= 15 * 60_000L, "order lines " + lines);
        assertEquals(10 * 60_000L, lines, 60_000L * 0.05, "about 10 lines per order on average");
        assertEquals(0L, n.get("item_stats"));
        assertEquals(100_000L, new TpccBenchmark(TpccConfig.spec(1).withMix(TpccMix.HOT_ITEM)).loader(0)
                .expectedRowsPerTable().get("item_stats"));
    }

    @Test
    void initialValuesFollowTheSpecification() {
        TpccConfig cfg = new TpccConfig(1, 200, 1200, 100, TpccMix.STANDARD, 9L);
        MapDb db = new MapDb(cfg);
        TpccSchema s = db.s;
        Row w = db.get(s.warehouse(), 1);
        assertEquals(300_000.0, w.getDouble("w_ytd"));
        assertTrue(w.getString("w_zip").endsWith("11111") && w.getString("w_zip").length() == 9);
        Row d = db.get(s.district(), 1, 4);
        assertEquals(30_000.0, d.getDouble("d_ytd"));
        assertEquals(101L, d.getLong("d_next_o_id"));
        assertTrue(d.getDouble("d_tax") >= 0 && d.getDouble("d_tax") <= 0.2);
        assertEquals(71L, db.get(s.districtDeliv(), 1, 4).getLong("d_next_deliv_o_id"), "100 - 30 + 1");
        int bc = 0;
        for (int c = 1; c <= 1200; c++) {
            Row cu = db.get(s.customer(), 1, 4, c);
            assertEquals("OE", cu.getString("c_middle"));
            assertEquals(-10.0, cu.getDouble("c_balance"));
            assertEquals(10.0, cu.getDouble("c_ytd_payment"));
            assertEquals(1L, cu.getLong("c_payment_cnt"));
            int len = cu.getString("c_data").length();
            assertTrue(len >= 300 && len <= 500, "c_data length " + len);
            bc += cu.getString("c_credit").equals("BC") ? 1 : 0;
            if (c <= 1000) {
                assertEquals(TpccRandom.lastName(c - 1), cu.getString("c_last"));
            }
            Row h = db.get(s.history(), 1, 4, c, 0);
            assertEquals(10.0, h.getDouble("h_amount"));
        }
        assertTrue(bc > 60 && bc < 190, "about 10% BC customers, got " + bc + " of 1200");
        for (int o = 1; o <= 100; o++) {
            Row ord = db.get(s.oorder(), 1, 4, o);
            boolean undelivered = o >= 71;
            assertEquals(undelivered, ord.get("o_carrier_id") == null, "order " + o);
            assertEquals(undelivered, db.get(s.newOrder(), 1, 4, o) != null, "new_order " + o);
            for (int n = 1; n <= ord.getLong("o_ol_cnt"); n++) {
                Row line = db.get(s.orderLine(), 1, 4, o, n);
                assertEquals(undelivered, line.get("ol_delivery_d") == null);
                assertEquals(5L, line.getLong("ol_quantity"));
                assertEquals(undelivered, line.getDouble("ol_amount") > 0);
                assertEquals(24, line.getString("ol_dist_info").length());
            }
            Row clo = db.get(s.customerLastOrder(), 1, 4, ord.getLong("o_c_id"));
            assertEquals(o, clo.getLong("clo_o_id"), "each of 100 orders has its own customer when O <= C");
        }
        int original = 0;
        for (int i = 1; i <= 200; i++) {
            Row st = db.get(s.stock(), 1, i);
            long q = st.getLong("s_quantity");
            assertTrue(q >= 10 && q <= 100);
            assertEquals(24, st.getString("s_dist_07").length());
            original += st.getString("s_data").contains("ORIGINAL") ? 1 : 0;
            double price = db.get(s.item(), i).getDouble("i_price");
            assertTrue(price >= 1.0 && price <= 100.0);
        }
        assertTrue(original > 0 && original < 60, "about 10% ORIGINAL stock, got " + original + " of 200");
    }

    @Test
    void deterministicPerSeedAndDifferentAcrossSeeds() {
        TpccConfig cfg = new TpccConfig(2, 30, 20, 20, TpccMix.HOT_ITEM, 5L);
        List<String> a = dump(cfg);
        assertEquals(a, dump(cfg));
        assertNotEquals(a, dump(cfg.withSeed(6L)));
    }

    private static List<String> dump(TpccConfig cfg) {
        List<String> out = new ArrayList<>();
        new TpccBenchmark(cfg).loader(7L).load((k, r) -> out.add(k + "=" + r), TpccLoader.Progress.NONE);
        return out;
    }

    @Test
    void progressIsReportedMonotonicallyAndEndsAtTheTotal() {
        TpccBenchmark b = new TpccBenchmark(new TpccConfig(2, 60_000, 100, 100, TpccMix.STANDARD, 1L));
        TpccLoader loader = b.loader(0);
        List<long[]> reports = new ArrayList<>();
        long[] sunk = {0};
        long n = loader.load((k, r) -> sunk[0]++, (done, total) -> reports.add(new long[] {done, total}));
        assertEquals(loader.expectedRows(), n);
        assertEquals(n, sunk[0]);
        assertTrue(reports.size() >= 2, "reports " + reports.size());
        for (int i = 1; i < reports.size(); i++) {
            assertTrue(reports.get(i)[0] >= reports.get(i - 1)[0]);
            assertEquals(n, reports.get(i)[1]);
        }
        assertEquals(n, reports.get(reports.size() - 1)[0]);
    }

    @Test
    void hotItemMixLoadsItemStatsAtZero() {
        MapDb db = new MapDb(MapDb.small(1, TpccMix.HOT_ITEM));
        assertEquals(50, db.count(db.s.itemStats()));
        assertEquals(0L, db.get(db.s.itemStats(), 17).getLong("is_count"));
    }

    @Test
    void initialOrderLinesAgreeWithTheLoadedOrders() {
        MapDb db = MapDb.small(2);
        TpccLoader l = db.bench.loader(0);
        assertEquals(db.get(db.s.oorder(), 2, 7, 13).getLong("o_ol_cnt"), l.initialOrderLines(2, 7, 13));
        assertThrows(IndexOutOfBoundsException.class, () -> l.initialOrderLines(3, 1, 1));
        assertNotNull(db.get(db.s.orderLine(), 2, 7, 13, l.initialOrderLines(2, 7, 13)));
        assertNull(db.get(db.s.orderLine(), 2, 7, 13, l.initialOrderLines(2, 7, 13) + 1));
    }

    @Test
    void badScaleIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> TpccConfig.spec(0));
        assertThrows(IllegalArgumentException.class, () -> TpccConfig.spec(1).withItems(0));
    }
}
