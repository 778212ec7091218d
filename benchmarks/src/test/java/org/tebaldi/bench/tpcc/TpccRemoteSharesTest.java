package org.tebaldi.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.bench.workload.WorkloadOptions;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.txn.Inputs;

/** COCO's TPC-C (Lu et al. VLDB 2021, §7.1): the new_order + payment mix and the remote shares per transaction. */
class TpccRemoteSharesTest {
    private static TpccClient client(TpccConfig cfg, int index) {
        return new TpccClient(cfg, NuRandConstants.fromSeed(cfg.seed()), index, 7, () -> 5L);
    }

    @Test
    void theCocoMixIsHalfNewOrderHalfPayment() {
        TpccConfig cfg = TpccConfig.spec(4).withMix(TpccMix.parse("new-order_payment"));
        TpccClient c = client(cfg, 0);
        int newOrders = 0;
        for (int i = 0; i < 10_000; i++) {
            String t = c.next().type();
            assertTrue(t.equals(NewOrder.NAME) || t.equals(Payment.NAME), t);
            newOrders += t.equals(NewOrder.NAME) ? 1 : 0;
        }
        assertTrue(newOrders > 4_700 && newOrders < 5_300, "new_order " + newOrders + " of 10000");
    }

    @Test
    void aRemoteNewOrderHasExactlyOneRemoteLineAndTheSharesAreAsAsked() {
        TpccConfig cfg = TpccConfig.spec(4);
        TpccClient c = client(cfg, 1).remote(30, 60); // home warehouse 2
        int remoteOrders = 0;
        for (int i = 0; i < 10_000; i++) {
            Inputs in = c.next(NewOrder.NAME).inputs();
            long[] supply = (long[]) in.get(4);
            int remote = 0;
            for (long s : supply) {
                remote += s != 2 ? 1 : 0;
            }
            assertTrue(remote <= 1, "at most one remote line, found " + remote);
            remoteOrders += remote;
        }
        assertTrue(remoteOrders > 2_800 && remoteOrders < 3_200, "remote orders " + remoteOrders + " of 10000");
        int remotePayments = 0;
        for (int i = 0; i < 10_000; i++) {
            remotePayments += c.next(Payment.NAME).inputs().getLong(2) != 2L ? 1 : 0;
        }
        assertTrue(remotePayments > 5_800 && remotePayments < 6_200, "remote payments " + remotePayments);
        TpccClient local = client(cfg, 1).remote(0, 0);
        for (int i = 0; i < 2_000; i++) {
            for (long s : (long[]) local.next(NewOrder.NAME).inputs().get(4)) {
                assertEquals(2L, s, "0%: every line from the home warehouse");
            }
            assertEquals(2L, local.next(Payment.NAME).inputs().getLong(2));
        }
    }

    @Test
    void badSharesAreRefusedWithOneMessage() {
        assertThrows(IllegalArgumentException.class, () -> client(TpccConfig.spec(2), 0).remote(101, 15));
        ConfigException e = assertThrows(ConfigException.class, () -> new TpccFactory().create(
                WorkloadOptions.of("tpcc", Map.of("warehouses", 2, "newOrderRemote", -5))));
        assertTrue(e.getMessage().contains("newOrderRemote"), e.getMessage());
        ConfigException m = assertThrows(ConfigException.class, () -> new TpccFactory().create(
                WorkloadOptions.of("tpcc", Map.of("mix", "coco"))));
        assertTrue(m.getMessage().contains("new_order_payment"), m.getMessage());
    }
}
