package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.Shifts;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.config.ConfigException;

/**
 * {@code workload.shift} (docs/experiments.md, "Workload shifts"): the options in force change at the given times
 * on the run's clock, the first draw under each shift is recorded, a TPC-C run that shifts to hot_item registers it
 * from the start, and every bad input is one message naming the file, line, place and fix, checked word for word
 * ({@code <dir>} stands for the temporary folder).
 */
class WorkloadShiftTest {
    @TempDir
    Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
    }

    private static String bank(String workload) {
        return ExperimentFixture.BANK.replace("workload: {name: bank, accounts: 20}", workload);
    }

    private String error(String yaml) {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(yaml));
        ClearError.check(e, yaml);
        return e.getMessage().replace(tmp.toString(), "<dir>");
    }

    /** Share of {@code type} among {@code n} draws of {@code c}. */
    private static double share(ClientSource c, String type, int n) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            k += c.next().type().equals(type) ? 1 : 0;
        }
        return (double) k / n;
    }

    @Test
    void theBanksAuditShareShiftsOnTheRunsClock() {
        Experiment e = fx.load(bank("workload: {name: bank, accounts: 20, auditRatio: 0,\n"
                + "           shift: [{at: 2s, auditRatio: 1}, {at: 3s, auditRatio: 0.5}]}"));
        Workload w = e.workload();
        Shifts s = w.shifts();
        assertEquals(2, s.size());
        AtomicLong now = new AtomicLong();
        s.clock(now::get);
        ClientSource c = w.newClient(0, 1);
        assertEquals(0.0, share(c, "audit", 200));
        now.set(2_500_000);
        assertEquals(1.0, share(c, "audit", 200));
        now.set(3_000_123);
        double half = share(c, "audit", 2000);
        assertTrue(half > 0.45 && half < 0.55, "share " + half);
        List<Shifts.Happened> h = s.happened();
        assertEquals("Happened[phase=1, atMs=2000, firstMs=2500, changes={auditRatio=1}]", h.get(0).toString());
        assertEquals("Happened[phase=2, atMs=3000, firstMs=3000, changes={auditRatio=0.5}]", h.get(1).toString());
        assertEquals("[{at=2s, auditRatio=1}, {at=3s, auditRatio=0.5}]", e.workloadOptions().get("shift").toString());
    }

    @Test
    void aTpccRunShiftingToHotItemRegistersItFromTheStart() {
        Experiment e = fx.load(bank("workload: {name: tpcc, warehouses: 1, items: 1000, customersPerDistrict: 30,\n"
                + "           ordersPerDistrict: 30, mix: standard, shift: [{at: 30m, mix: hot_item}]}")
                .replace("tree: ../trees/bank.yaml", "tree: {root: {cc: 2pl, txns: [new_order, payment, delivery,"
                        + " order_status, stock_level, hot_item]}}"));
        Workload w = e.workload();
        assertTrue(w.database().hasType("hot_item"));
        AtomicLong now = new AtomicLong();
        w.shifts().clock(now::get);
        ClientSource c = w.newClient(0, 1);
        Map<String, Integer> before = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            before.merge(c.next().type(), 1, Integer::sum);
        }
        assertFalse(before.containsKey("hot_item"), before.toString());
        assertEquals(-1, w.shifts().happened().get(0).firstMs());
        now.set(30 * 60_000_000L);
        double hot = share(c, "hot_item", 4000);
        assertTrue(hot > 0.025 && hot < 0.06, "hot_item share " + hot);
        assertEquals(30 * 60_000, w.shifts().happened().get(0).firstMs());
    }

    @Test
    void badShiftsGetOneClearMessage() {
        assertEquals("<dir>/experiments/x.yaml:2: workload.shift: expected a list of shifts, found '30m'. Fix: write e.g. shift: [{at: 30m, auditRatio: ...}]",
                error(bank("workload: {name: bank, accounts: 20, shift: 30m}")));
        assertEquals("<dir>/experiments/x.yaml:2: workload.shift[0]: a shift needs 'at', the time after the "
                + "clients started. Fix: write e.g. shift: [{at: 30m, auditRatio: ...}]",
                error(bank("workload: {name: bank, accounts: 20, shift: [{auditRatio: 0.5}]}")));
        assertEquals("<dir>/experiments/x.yaml:2: workload.shift[1].at: must be after the previous shift's 10s, "
                + "found 5s. Fix: list the shifts in time order, each at a later time",
                error(bank("workload: {name: bank, accounts: 20, shift: [{at: 10s, auditRatio: 0.5}, "
                        + "{at: 5s, auditRatio: 0}]}")));
        assertEquals("<dir>/experiments/x.yaml:2: workload.shift[0].accounts: 'accounts' cannot change during a "
                + "run of workload 'bank'. Fix: shift one of auditRatio, or run separate experiments",
                error(bank("workload: {name: bank, accounts: 20, shift: [{at: 10s, accounts: 5}]}")));
        assertEquals("<dir>/experiments/x.yaml:2: workload.shift[0]: this shift changes nothing. Fix: add an "
                + "option to change, one of auditRatio",
                error(bank("workload: {name: bank, accounts: 20, shift: [{at: 10s}]}")));
        assertEquals("<dir>/experiments/x.yaml:2: workload.shift[0].auditRatio: must be between 0.0 and 1.0, "
                + "found 2.0. Fix: write e.g. auditRatio: 0.0",
                error(bank("workload: {name: bank, accounts: 20, auditRatio: 0, shift: [{at: 10s, auditRatio: 2}]}")));
        assertEquals("<dir>/experiments/x.yaml:2: workload.shift[0].mix: unknown value 'hot-item' (did you mean "
                + "'hot_item'?). Fix: use one of standard, hot_item, new_order_payment, read_heavy",
                error(bank("workload: {name: tpcc, warehouses: 1, shift: [{at: 10s, mix: hot-item}]}")));
        assertEquals("<dir>/experiments/x.yaml:2: workload.shift: workload 'ycsb' does not change during a "
                + "run. Fix: remove shift, or use a workload that shifts: bank (auditRatio), tpcc (mix)",
                error(bank("workload: {name: ycsb, shift: [{at: 10s, theta: 0.9}]}")));
    }
}
