package org.tebaldi.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tebaldi.bench.workload.bank.BankWorkload;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/** The bank workload: its database, load, client mix, consistency check, and creation from options. */
class BankWorkloadTest {
    private final BankWorkload bank = new BankWorkload(10, 0.25);
    private final TableSchema account = bank.database().catalog().table(BankWorkload.ACCOUNT);

    private MapSnapshot loaded() {
        MapSnapshot s = new MapSnapshot(bank.database().catalog());
        List<String> progress = new ArrayList<>();
        bank.load(new DataLoader() {
            @Override
            public void expect(String table, long rows) {
                assertEquals(BankWorkload.ACCOUNT, table);
                assertEquals(10, rows);
            }

            @Override
            public void load(Key key, Row row) {
                s.rows.put(key, row);
            }
        }, (stage, done, total) -> progress.add(stage + " " + done + "/" + total));
        assertEquals(List.of("account 10/10"), progress);
        return s;
    }

    @Test
    void definesTransferAndAudit() {
        assertEquals(List.of("transfer", "audit"), bank.database().types().stream().map(t -> t.name()).toList());
        assertFalse(bank.database().type("transfer").readOnly());
        assertTrue(bank.database().type("audit").readOnly());
        assertEquals("bank", bank.name());
    }

    @Test
    void consistencyHoldsAfterLoadAndAfterABalancedTransfer() {
        MapSnapshot s = loaded();
        assertTrue(bank.check(s).consistent(), bank.check(s).summary());
        s.rows.put(Key.of(account, 1), account.row(90L));
        s.rows.put(Key.of(account, 2), account.row(110L));
        ConsistencyResult r = bank.check(s);
        assertTrue(r.consistent());
        assertEquals("total balance 1000 over 10 accounts (expected 1000 over 10)", r.summary());
    }

    @Test
    void consistencyFailsOnALostUpdateOrAMissingAccount() {
        MapSnapshot s = loaded();
        s.rows.put(Key.of(account, 1), account.row(90L));
        ConsistencyResult r = bank.check(s);
        assertFalse(r.consistent());
        assertEquals(List.of("total balance is 990, expected 1000"), r.problems());
        s.rows.put(Key.of(account, 1), account.row(100L));
        s.rows.remove(Key.of(account, 3));
        assertEquals(List.of("total balance is 900, expected 1000", "9 accounts exist, expected 10"),
                bank.check(s).problems());
    }

    @Test
    void clientsMixTransfersAndAuditsDeterministically() {
        ClientSource a = bank.newClient(0, 7);
        ClientSource b = bank.newClient(0, 7);
        int audits = 0;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            TxnRequest x = a.next();
            TxnRequest y = b.next();
            assertEquals(x.type(), y.type());
            assertEquals(x.inputs().toString(), y.inputs().toString(), "same seed, same inputs");
            assertFalse(x.isProcedure());
            if (x.type().equals("audit")) {
                audits++;
            } else {
                long from = x.inputs().getLong(0);
                long to = x.inputs().getLong(1);
                long amount = x.inputs().getLong(2);
                assertNotEquals(from, to);
                assertTrue(from >= 0 && from < 10 && to >= 0 && to < 10);
                assertTrue(amount >= 1 && amount <= 10);
                seen.add(from + ">" + to);
            }
        }
        assertEquals(0.25, audits / 2000.0, 0.04);
        assertTrue(seen.size() > 60, "transfers spread over account pairs");
        assertThrows(IllegalArgumentException.class, () -> new BankWorkload(1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new BankWorkload(5, 1.5));
    }

    @Test
    void createdFromOptionsWithDefaults() {
        WorkloadOptions o = WorkloadOptions.of("bank", Map.of("accounts", 42));
        BankWorkload w = (BankWorkload) Workloads.create(o);
        assertEquals(42, w.accounts());
        assertEquals(Map.of("name", "bank", "accounts", 42L, "auditRatio", 0.1, "execution", "procedures", "roundTrips",
                "batched"), o.resolved()); // every workload takes execution and roundTrips (docs/experiments.md)
        assertTrue(Workloads.all().containsKey("bank"));
        assertTrue(Workloads.all().get("bank").description().contains("accounts"));
    }
}
