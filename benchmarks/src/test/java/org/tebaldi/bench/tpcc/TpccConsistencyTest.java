package org.tebaldi.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tebaldi.bench.tpcc.ConsistencyReport.Check;
import org.tebaldi.core.model.Row;

/**
 * The consistency checker (TPC-C §3.3.2.1–4 plus the adaptation's invariants) passes on a freshly loaded database
 * and reports each deliberately corrupted state under the right check, with the numbers.
 */
class TpccConsistencyTest {
    private final MapDb db = MapDb.small(2);
    private final TpccSchema s = db.s;

    private ConsistencyReport failsOnly(Check check) {
        ConsistencyReport r = db.check();
        assertFalse(r.ok(), "corruption not detected");
        for (Check c : Check.values()) {
            if (c != check) {
                assertEquals(0, r.violationCount(c), () -> "unexpected " + c + ": " + r.summary(10));
            }
        }
        assertTrue(r.violationCount(check) > 0, r::summary);
        return r;
    }

    @Test
    void freshDatabasePasses() {
        ConsistencyReport r = db.check();
        assertTrue(r.ok(), () -> r.summary(20));
        assertEquals(2L, r.rowsScanned().get("warehouse"));
        assertEquals(db.count(s.orderLine()), r.rowsScanned().get("order_line"));
        assertTrue(MapDb.small(1).check().ok());
        assertTrue(new MapDb(MapDb.small(3, TpccMix.HOT_ITEM)).check().ok());
    }

    @Test
    void condition1WarehouseYtd() {
        Row d = db.get(s.district(), 2, 5);
        db.put(s.district(), d.with("d_ytd", d.getDouble("d_ytd") + 12.5), 2, 5);
        ConsistencyReport r = failsOnly(Check.WAREHOUSE_YTD);
        assertEquals(1, r.violationCount());
        assertEquals("condition 1 WAREHOUSE_YTD at warehouse 2: W_YTD = 300000.00 but sum(D_YTD) = 300012.50 over "
                + "10 districts", r.violations().get(0).toString());
    }

    @Test
    void condition1ToleratesRoundingButNotACent() {
        Row w = db.get(s.warehouse(), 1);
        db.put(s.warehouse(), w.with("w_ytd", w.getDouble("w_ytd") + 1e-7), 1);
        assertTrue(db.check().ok());
        db.put(s.warehouse(), w.with("w_ytd", w.getDouble("w_ytd") + 0.01), 1);
        failsOnly(Check.WAREHOUSE_YTD);
    }

    @Test
    void condition2NextOrderIdAheadOfOrders() {
        Row d = db.get(s.district(), 1, 3);
        db.put(s.district(), d.with("d_next_o_id", 32L), 1, 3);
        ConsistencyReport r = db.check();
        assertEquals(2, r.violationCount(Check.NEXT_ORDER_ID), r::summary);
        assertEquals("D_NEXT_O_ID - 1 = 31 but max(O_ID) = 30 (30 orders)", r.violations().get(0).detail());
        assertEquals("district (1, 3)", r.violations().get(0).where());
        assertEquals(0, r.violationCount(Check.WAREHOUSE_YTD) + r.violationCount(Check.NEW_ORDER_RANGE)
                + r.violationCount(Check.ORDER_LINE_COUNT));
    }

    @Test
    void condition2OrderWithoutItsNewOrderRow() {
        db.remove(s.newOrder(), 1, 3, 30);
        ConsistencyReport r = db.check();
        assertEquals(1, r.violationCount(Check.NEXT_ORDER_ID), r::summary);
        assertEquals("D_NEXT_O_ID - 1 = 30 but max(NO_O_ID) = 29", r.violations().get(0).detail());
        assertEquals(0, r.violationCount(Check.NEW_ORDER_RANGE));
    }

    @Test
    void condition3GapInNewOrders() {
        db.remove(s.newOrder(), 2, 9, 25);
        ConsistencyReport r = failsOnly(Check.NEW_ORDER_RANGE);
        assertEquals("max(NO_O_ID) - min(NO_O_ID) + 1 = 30 - 22 + 1 = 9 but there are 8 new_order rows",
                r.violations().get(0).detail());
    }

    @Test
    void condition4MissingOrderLine() {
        long cnt = db.get(s.oorder(), 1, 1, 7).getLong("o_ol_cnt");
        db.remove(s.orderLine(), 1, 1, 7, cnt);
        ConsistencyReport r = failsOnly(Check.ORDER_LINE_COUNT);
        assertEquals(1, r.violationCount());
        assertTrue(r.violations().get(0).detail().endsWith("but there are "
                + (Long.parseLong(r.violations().get(0).detail().split(" ")[2]) - 1) + " order_line rows"));
    }

    @Test
    void condition4WrongLineCount() {
        Row o = db.get(s.oorder(), 2, 2, 2);
        db.put(s.oorder(), o.with("o_ol_cnt", o.getLong("o_ol_cnt") + 1), 2, 2, 2);
        failsOnly(Check.ORDER_LINE_COUNT);
    }

    @Test
    void lastOrderIndexPointingAtAnotherCustomersOrder() {
        Row clo = db.get(s.customerLastOrder(), 1, 2, 5);
        long o = clo.getLong("clo_o_id");
        long other = o == 1 ? 2 : o - 1;
        db.put(s.customerLastOrder(), clo.with("clo_o_id", other), 1, 2, 5);
        ConsistencyReport r = failsOnly(Check.LAST_ORDER_INDEX);
        assertTrue(r.violations().get(0).detail().startsWith("clo_o_id = " + other + " but that order's O_C_ID = "),
                r::summary);
    }

    @Test
    void lastOrderIndexPointingAtAMissingOrStaleOrder() {
        Row clo = db.get(s.customerLastOrder(), 1, 2, 5);
        db.put(s.customerLastOrder(), clo.with("clo_o_id", 999L), 1, 2, 5);
        assertEquals("clo_o_id = 999 but there is no such order", failsOnly(Check.LAST_ORDER_INDEX)
                .violations().get(0).detail());

        MapDb db2 = new MapDb(new TpccConfig(1, 20, 5, 10, TpccMix.STANDARD, 1L)); // each customer has 2 orders
        Row c2 = db2.get(db2.s.customerLastOrder(), 1, 1, 1);
        long latest = c2.getLong("clo_o_id");
        long older = latest - 5;
        assertEquals(1L, db2.get(db2.s.oorder(), 1, 1, older).getLong("o_c_id"));
        db2.put(db2.s.customerLastOrder(), c2.with("clo_o_id", older), 1, 1, 1);
        ConsistencyReport r = db2.check();
        assertEquals(1, r.violationCount(Check.LAST_ORDER_INDEX), r::summary);
        assertEquals("clo_o_id = " + older + " but the customer's latest order is " + latest,
                r.violations().get(0).detail());
    }

    @Test
    void lastOrderIndexMissingEntry() {
        db.remove(s.customerLastOrder(), 2, 10, 30);
        assertTrue(failsOnly(Check.LAST_ORDER_INDEX).violations().get(0).detail()
                .endsWith("but no customer_last_order row"));
    }

    @Test
    void deliveryCursorBehindTheOldestNewOrder() {
        Row c = db.get(s.districtDeliv(), 1, 6);
        db.put(s.districtDeliv(), c.with("d_next_deliv_o_id", 21L), 1, 6);
        assertEquals("d_next_deliv_o_id = 21 but min(NO_O_ID) = 22",
                failsOnly(Check.DELIVERY_CURSOR).violations().get(0).detail());
    }

    @Test
    void deliveredOrderStillInNewOrderIsCaughtByTheCursor() {
        db.put(s.districtDeliv(), db.get(s.districtDeliv(), 1, 6).with("d_next_deliv_o_id", 23L), 1, 6);
        failsOnly(Check.DELIVERY_CURSOR);
    }

    @Test
    void orphanRowsOfAMissingDistrictAreReported() {
        db.remove(s.district(), 2, 4);
        ConsistencyReport r = db.check();
        assertTrue(r.violationCount(Check.NEXT_ORDER_ID) > 0, r::summary);
        assertTrue(r.violationCount(Check.WAREHOUSE_YTD) > 0, r::summary);
        assertTrue(r.summary(5).contains("district (2, 4): no district row but 30 orders"), r::summary);
    }
}
