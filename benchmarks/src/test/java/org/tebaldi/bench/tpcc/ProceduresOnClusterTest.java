package org.tebaldi.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * Each TPC-C transaction run alone through a transaction coordinator of a tiny simulated cluster (2 TCs, 2 DSs,
 * monolithic 2PL, 2 warehouses of 50 items, 30 customers and 30 orders per district), its effects compared with
 * the state before, and the database still consistent afterwards.
 */
class ProceduresOnClusterTest {
    private static final long DATE = 1_800_000_000_000L;

    private SimTpcc db = open(new TpccConfig(2, 50, 30, 30, TpccMix.HOT_ITEM, 11L));
    private final TpccSchema s = db.bench.schema();

    private static SimTpcc open(TpccConfig cfg) {
        CcTree tree = CcTree.build(TreeSpec.leaf("2pl", cfg.mix().types().toArray(new String[0])), "test");
        return new SimTpcc(cfg, tree, 5L, SimulatedRuntime.Model.jittery(), 2, 2);
    }

    @AfterEach
    void stillConsistentAndSerializable() {
        ConsistencyReport r = db.consistency();
        assertTrue(r.ok(), r::summary);
        assertTrue(db.serializability().serializable(), () -> db.serializability().summary());
        db.cluster.close();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> call(TpccRequest req) {
        return (Map<String, Object>) db.run(req);
    }

    @Test
    void newOrderTakesTheNextIdUpdatesStockAndInsertsOrderLinesAndIndex() {
        Row stock2 = db.get(s.stock(), 2, 2);
        long q2 = stock2.getLong("s_quantity") - 5; // leaves 5 < 10: the +91 rule applies
        long[] items = {1, 2, 3};
        long[] supply = {1, 2, 1};
        long[] qty = {4, q2, 10};
        Row d0 = db.get(s.district(), 1, 3);
        Row[] s0 = {db.get(s.stock(), 1, 1), stock2, db.get(s.stock(), 1, 3)};
        Map<String, Object> out = call(new TpccRequest(NewOrder.NAME,
                NewOrder.inputs(1, 3, 7, items, supply, qty, DATE), null));

        long oId = d0.getLong("d_next_o_id");
        assertEquals(31L, oId);
        assertEquals(oId, out.get("o_id"));
        assertEquals(oId + 1, db.get(s.district(), 1, 3).getLong("d_next_o_id"));
        Row o = db.get(s.oorder(), 1, 3, oId);
        assertEquals(7L, o.getLong("o_c_id"));
        assertEquals(3L, o.getLong("o_ol_cnt"));
        assertEquals(0L, o.getLong("o_all_local"));
        assertEquals(DATE, o.getLong("o_entry_d"));
        assertNull(o.get("o_carrier_id"));
        assertNotNull(db.get(s.newOrder(), 1, 3, oId));
        assertEquals(oId, db.get(s.customerLastOrder(), 1, 3, 7).getLong("clo_o_id"));
        double total = 0;
        for (int i = 0; i < 3; i++) {
            Row line = db.get(s.orderLine(), 1, 3, oId, i + 1);
            double price = db.get(s.item(), items[i]).getDouble("i_price");
            assertEquals(items[i], line.getLong("ol_i_id"));
            assertEquals(supply[i], line.getLong("ol_supply_w_id"));
            assertEquals(qty[i], line.getLong("ol_quantity"));
            assertEquals(qty[i] * price, line.getDouble("ol_amount"), 1e-9);
            assertEquals(s0[i].getString("s_dist_03"), line.getString("ol_dist_info"));
            assertNull(line.get("ol_delivery_d"));
            total += qty[i] * price;
            Row st = db.get(s.stock(), supply[i], items[i]);
            long before = s0[i].getLong("s_quantity");
            long expected = before - qty[i] >= 10 ? before - qty[i] : before - qty[i] + 91;
            assertEquals(expected, st.getLong("s_quantity"), "item " + items[i]);
            assertEquals(qty[i], st.getLong("s_ytd"));
            assertEquals(1L, st.getLong("s_order_cnt"));
            assertEquals(supply[i] == 1 ? 0L : 1L, st.getLong("s_remote_cnt"));
        }
        assertEquals(96L, db.get(s.stock(), 2, 2).getLong("s_quantity"));
        assertNull(db.get(s.orderLine(), 1, 3, oId, 4));
        double disc = db.get(s.customer(), 1, 3, 7).getDouble("c_discount");
        double taxes = db.get(s.warehouse(), 1).getDouble("w_tax") + d0.getDouble("d_tax");
        assertEquals(total * (1 - disc) * (1 + taxes), (Double) out.get("total"), 1e-6);
    }

    @Test
    void generatedNewOrderCommitsAndAdvancesTheDistrict() {
        TpccRequest req = db.client(3).next(NewOrder.NAME);
        long w = req.inputs().getLong(0);
        long d = req.inputs().getLong(1);
        assertEquals(2L, w, "client 3 of 2 warehouses is at warehouse 2");
        call(req);
        assertEquals(32L, db.get(s.district(), w, d).getLong("d_next_o_id"));
        assertEquals(((long[]) req.inputs().get(3)).length, db.get(s.oorder(), w, d, 31).getLong("o_ol_cnt"));
    }

    @Test
    void remotePaymentUpdatesYtdsCustomerAndHistory() {
        long cid = -1;
        for (int c = 1; c <= 30 && cid < 0; c++) {
            if (db.get(s.customer(), 2, 6, c).getString("c_credit").equals("BC")) {
                cid = c;
            }
        }
        assertTrue(cid > 0, "a BC customer in district (2, 6)");
        Row w0 = db.get(s.warehouse(), 1);
        Row d0 = db.get(s.district(), 1, 4);
        Row c0 = db.get(s.customer(), 2, 6, cid);
        Map<String, Object> out = call(new TpccRequest(Payment.NAME,
                Payment.inputs(1, 4, 2, 6, cid, 123.45, 77, DATE), null));

        assertEquals(w0.getDouble("w_ytd") + 123.45, db.get(s.warehouse(), 1).getDouble("w_ytd"), 1e-9);
        assertEquals(d0.getDouble("d_ytd") + 123.45, db.get(s.district(), 1, 4).getDouble("d_ytd"), 1e-9);
        Row c1 = db.get(s.customer(), 2, 6, cid);
        assertEquals(c0.getDouble("c_balance") - 123.45, c1.getDouble("c_balance"), 1e-9);
        assertEquals(c1.getDouble("c_balance"), (Double) out.get("c_balance"));
        assertEquals(c0.getDouble("c_ytd_payment") + 123.45, c1.getDouble("c_ytd_payment"), 1e-9);
        assertEquals(2L, c1.getLong("c_payment_cnt"));
        assertEquals(cid + " 6 2 4 1 123.45|" + c0.getString("c_data"), c1.getString("c_data"));
        Row h = db.get(s.history(), 2, 6, cid, 77);
        assertEquals(4L, h.getLong("h_d_id"));
        assertEquals(1L, h.getLong("h_w_id"));
        assertEquals(123.45, h.getDouble("h_amount"));
        assertEquals(DATE, h.getLong("h_date"));
        assertEquals(db.get(s.warehouse(), 1).getString("w_name") + "    "
                + db.get(s.district(), 1, 4).getString("d_name"), h.getString("h_data"));
    }

    @Test
    void goodCreditPaymentLeavesCustomerDataAlone() {
        long cid = -1;
        for (int c = 1; c <= 30 && cid < 0; c++) {
            if (db.get(s.customer(), 1, 1, c).getString("c_credit").equals("GC")) {
                cid = c;
            }
        }
        Row c0 = db.get(s.customer(), 1, 1, cid);
        call(new TpccRequest(Payment.NAME, Payment.inputs(1, 1, 1, 1, cid, 10.0, 5, DATE), null));
        assertEquals(c0.getString("c_data"), db.get(s.customer(), 1, 1, cid).getString("c_data"));
    }

    @Test
    void deliveryDeliversTheOldestOrderOfEveryDistrict() {
        Map<Integer, Double> sums = new HashMap<>();
        Map<Integer, Row> customers = new HashMap<>();
        for (int d = 1; d <= 10; d++) {
            assertEquals(22L, db.get(s.districtDeliv(), 1, d).getLong("d_next_deliv_o_id"), "30 - 9 + 1");
            Row o = db.get(s.oorder(), 1, d, 22);
            double sum = 0;
            for (int n = 1; n <= o.getLong("o_ol_cnt"); n++) {
                sum += db.get(s.orderLine(), 1, d, 22, n).getDouble("ol_amount");
            }
            sums.put(d, sum);
            customers.put(d, db.get(s.customer(), 1, d, o.getLong("o_c_id")));
        }
        Map<String, Object> out = call(new TpccRequest(Delivery.NAME, Delivery.inputs(1, 7, DATE), null));

        assertEquals(10L, out.get("delivered"));
        for (int d = 1; d <= 10; d++) {
            assertNull(db.get(s.newOrder(), 1, d, 22));
            assertNotNull(db.get(s.newOrder(), 1, d, 23));
            assertEquals(23L, db.get(s.districtDeliv(), 1, d).getLong("d_next_deliv_o_id"));
            Row o = db.get(s.oorder(), 1, d, 22);
            assertEquals(7L, o.getLong("o_carrier_id"));
            for (int n = 1; n <= o.getLong("o_ol_cnt"); n++) {
                assertEquals(DATE, db.get(s.orderLine(), 1, d, 22, n).getLong("ol_delivery_d"));
            }
            Row c = db.get(s.customer(), 1, d, o.getLong("o_c_id"));
            assertEquals(customers.get(d).getDouble("c_balance") + sums.get(d), c.getDouble("c_balance"), 1e-6);
            assertEquals(customers.get(d).getLong("c_delivery_cnt") + 1, c.getLong("c_delivery_cnt"));
            assertEquals(22L, db.get(s.districtDeliv(), 2, d).getLong("d_next_deliv_o_id"), "warehouse 2 untouched");
        }
    }

    @Test
    void deliverySkipsDistrictsWithoutUndeliveredOrders() {
        db.cluster.close();
        db = open(new TpccConfig(1, 20, 10, 10, TpccMix.STANDARD, 3L)); // 3 undelivered orders per district
        TpccSchema t = db.bench.schema();
        long[] delivered = new long[4];
        for (int i = 0; i < 4; i++) {
            delivered[i] = (Long) call(new TpccRequest(Delivery.NAME, Delivery.inputs(1, 1 + i, DATE), null))
                    .get("delivered");
        }
        assertEquals(30L, delivered[0] + delivered[1] + delivered[2]);
        assertEquals(0L, delivered[3]);
        assertEquals(11L, db.get(t.districtDeliv(), 1, 5).getLong("d_next_deliv_o_id"));
        assertTrue(db.consistency().ok(), db.consistency()::summary);
        call(new TpccRequest(NewOrder.NAME, NewOrder.inputs(1, 5, 2, new long[] {4}, new long[] {1},
                new long[] {1}, DATE), null));
        assertEquals(1L, call(new TpccRequest(Delivery.NAME, Delivery.inputs(1, 9, DATE), null)).get("delivered"));
        assertEquals(9L, db.get(t.oorder(), 1, 5, 11).getLong("o_carrier_id"));
        assertEquals(12L, db.get(t.districtDeliv(), 1, 5).getLong("d_next_deliv_o_id"));
    }

    @Test
    void orderStatusReadsTheCustomersLatestOrderThroughTheIndex() {
        OrderStatus.Result r = (OrderStatus.Result) db.run(statusRequest(2, 8, 13));
        long oId = db.get(s.customerLastOrder(), 2, 8, 13).getLong("clo_o_id");
        assertEquals(oId, r.orderId());
        assertEquals(db.get(s.customer(), 2, 8, 13).getDouble("c_balance"), r.balance());
        Row o = db.get(s.oorder(), 2, 8, oId);
        assertEquals(o.get("o_carrier_id"), r.carrier());
        assertEquals(o.getLong("o_ol_cnt"), r.lines().size());
        for (int n = 1; n <= r.lines().size(); n++) {
            assertEquals(db.get(s.orderLine(), 2, 8, oId, n), r.lines().get(n - 1));
        }
        call(new TpccRequest(NewOrder.NAME, NewOrder.inputs(2, 8, 13, new long[] {5, 6}, new long[] {2, 2},
                new long[] {1, 1}, DATE), null));
        OrderStatus.Result after = (OrderStatus.Result) db.run(statusRequest(2, 8, 13));
        assertEquals(31L, after.orderId());
        assertNull(after.carrier());
        assertEquals(2, after.lines().size());
    }

    private static TpccRequest statusRequest(long w, long d, long c) {
        return new TpccRequest(OrderStatus.NAME, OrderStatus.inputs(w, d, c), OrderStatus.body(w, d, c)::apply);
    }

    @Test
    void stockLevelCountsDistinctLowStockItemsOfTheLast20Orders() {
        for (long threshold : new long[] {10, 50, 101}) {
            long next = db.get(s.district(), 1, 2).getLong("d_next_o_id");
            Set<Long> items = new HashSet<>();
            for (long o = next - 20; o < next; o++) {
                for (int n = 1; n <= db.get(s.oorder(), 1, 2, o).getLong("o_ol_cnt"); n++) {
                    items.add(db.get(s.orderLine(), 1, 2, o, n).getLong("ol_i_id"));
                }
            }
            long expected = items.stream().filter(i -> db.get(s.stock(), 1, i).getLong("s_quantity") < threshold)
                    .count();
            Object got = db.run(new TpccRequest(StockLevel.NAME, StockLevel.inputs(1, 2, threshold),
                    StockLevel.body(1, 2, threshold)::apply));
            assertEquals(expected, got, "threshold " + threshold);
            if (threshold == 101) {
                assertEquals(items.size(), expected, "every quantity is at most 100");
            }
        }
    }

    @Test
    void hotItemCountsTheItemsOfTheDistrictsLatestOrder() {
        Map<Long, Integer> sold = new HashMap<>();
        for (int n = 1; n <= db.get(s.oorder(), 1, 5, 30).getLong("o_ol_cnt"); n++) {
            sold.merge(db.get(s.orderLine(), 1, 5, 30, n).getLong("ol_i_id"), 1, Integer::sum);
        }
        Map<String, Object> out = call(new TpccRequest(HotItem.NAME, HotItem.inputs(1, 5), null));
        assertEquals(30L, out.get("o_id"));
        for (long i = 1; i <= 50; i++) {
            assertEquals((long) sold.getOrDefault(i, 0), db.get(s.itemStats(), i).getLong("is_count"), "item " + i);
        }
    }
}
