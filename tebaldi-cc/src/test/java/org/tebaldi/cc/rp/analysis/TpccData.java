package org.tebaldi.cc.rp.analysis;

import org.tebaldi.core.testkit.TestStore;
import java.util.Random;
import org.tebaldi.core.model.Catalog;

/**
 * Small random TPC-C stores and transaction inputs for equivalence runs: 2 warehouses × 3 districts × 3
 * customers, items 1..8 (ids 9 and 10 invalid), stock mostly present, some undelivered orders per district with
 * their new_order and order_line rows.
 */
final class TpccData {
    private final Random rnd;
    private final Catalog cat;

    TpccData(Random rnd, Catalog cat) {
        this.rnd = rnd;
        this.cat = cat;
    }

    TestStore store() {
        TestStore s = new TestStore(cat);
        for (long w = 1; w <= 2; w++) {
            s.put("warehouse", new long[] {w}, "w" + w, 0.1 * w, 0.0);
            for (long d = 1; d <= 3; d++) {
                long next = 3000 + rnd.nextInt(4);
                long deliv = 3000 + rnd.nextInt(5);
                s.put("district", new long[] {w, d}, "d" + d, 0.05, 0.0, next, deliv);
                for (long c = 1; c <= 3; c++) {
                    s.put("customer", new long[] {w, d, c}, 10.0, "GC", 0.1 * c, 0L, 0L);
                }
                for (long o = 3000; o < next; o++) {
                    long lines = 1 + rnd.nextInt(5);
                    s.put("oorder", new long[] {w, d, o}, 1L + rnd.nextInt(3), lines, 1L, null);
                    if (rnd.nextInt(4) > 0) {
                        s.put("new_order", new long[] {w, d, o}, 0L);
                    }
                    for (long l = 1; l <= lines; l++) {
                        if (rnd.nextInt(8) > 0) {
                            s.put("order_line", new long[] {w, d, o, l}, 1L, w, 2L, 1.25 * l, "x", null);
                        }
                    }
                }
            }
            for (long i = 1; i <= 10; i++) {
                if (rnd.nextInt(20) > 0) {
                    s.put("stock", new long[] {w, i}, 5L + rnd.nextInt(90), 0L, 0L, 0L, "dist" + w + "-" + i);
                }
            }
        }
        for (long i = 1; i <= 8; i++) {
            s.put("item", new long[] {i}, 1.5 * i, "item" + i);
        }
        return s;
    }

    Object[] newOrder() {
        int n = rnd.nextInt(12) == 0 ? 16 : 1 + rnd.nextInt(15);
        long[] items = new long[n];
        long[] supply = new long[n];
        long[] qty = new long[n];
        for (int i = 0; i < n; i++) {
            items[i] = 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 10 : 8);
            supply[i] = rnd.nextInt(6) == 0 ? 2 : 1;
            qty[i] = 1 + rnd.nextInt(10);
        }
        return new Object[] {1L + rnd.nextInt(2), 1L + rnd.nextInt(3), 1L + rnd.nextInt(3), items, supply, qty};
    }

    Object[] payment() {
        return new Object[] {1L + rnd.nextInt(2), 1L + rnd.nextInt(3), 1L + rnd.nextInt(4), 5.0 * (1 + rnd.nextInt(9)),
                (long) rnd.nextInt(1000)};
    }

    Object[] delivery() {
        return new Object[] {1L + rnd.nextInt(2), 1L + rnd.nextInt(10), 20240101L, (long) rnd.nextInt(4)};
    }
}
