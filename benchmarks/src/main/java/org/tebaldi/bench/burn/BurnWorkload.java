package org.tebaldi.bench.burn;

import java.util.Arrays;
import java.util.function.Supplier;
import org.tebaldi.bench.tpcc.TpccSimWorkload;
import org.tebaldi.server.sim.BankWorkload;
import org.tebaldi.server.sim.ListAppendWorkload;
import org.tebaldi.server.sim.SimWorkload;

/**
 * The workloads a burn {@link Scenario} can run, each a {@link SimWorkload} with its own invariant checks:
 * {@code bank} (interactive transfers between 6 accounts and read-only audits: every committed audit and the final
 * state see the total), {@code bank-proc} (the same with transfers as stored procedures) and {@code list-append}
 * (appends of unique values to lists in two tables, 5 keys each, and reads; every read is checked by the history)
 * and {@code tpcc-small} (the TPC-C standard mix on 2 warehouses of 100 items, 30 customers and 10 orders per
 * district: TPC-C consistency conditions 1–4 at the end).
 */
public enum BurnWorkload {
    BANK("bank", () -> new BankWorkload(6)),
    BANK_PROC("bank-proc", () -> new BankWorkload(6, true)),
    LIST_APPEND("list-append", () -> new ListAppendWorkload(5)),
    TPCC("tpcc-small", () -> new TpccSimWorkload(2));

    private final String label;
    private final Supplier<SimWorkload> factory;

    BurnWorkload(String label, Supplier<SimWorkload> factory) {
        this.label = label;
        this.factory = factory;
    }

    /** The name in scenario files and on the console. */
    public String label() {
        return label;
    }

    /** A fresh instance (workloads keep per-run state). */
    public SimWorkload create() {
        return factory.get();
    }

    /**
     * The workload named {@code label}.
     *
     * @throws IllegalArgumentException naming the known workloads if there is none
     */
    public static BurnWorkload of(String label) {
        for (BurnWorkload w : values()) {
            if (w.label.equals(label)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + label + "' (known: "
                + Arrays.stream(values()).map(BurnWorkload::label).toList() + ")");
    }
}
