package org.tebaldi.bench.micro;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * The layer-overhead microbenchmark (dissertation §4.6.5, Table 4.1): one transaction type {@code write7} of seven
 * blind writes, {@code cnt = seq} at row {@code k} of each of the tables {@code w1 .. w7} (empty at load; the first
 * write inserts); client {@code i} always uses {@code k = i} and numbers its transactions {@code seq = 1, 2, ...},
 * so concurrent transactions never conflict and every difference between CC trees is the cost of the layers
 * themselves. Inputs (Long): {@code k}, {@code seq}; no output.
 *
 * <p>Consistency: the seven tables hold the same rows with the same counts (a transaction's writes are all or
 * nothing).
 */
public final class OverheadWorkload extends CounterWorkload {
    /** The transaction type. */
    static final String TYPE = "write7";
    /** Number of writes (and tables). */
    static final int WRITES = 7;


    /** Builds the seven (empty) tables and the transaction type. */
    public OverheadWorkload() {
        for (int i = 1; i <= WRITES; i++) {
            tables.add(table(i), 0);
        }
        define(List.of(procedure()));
    }

    private static String table(int i) {
        return "w" + i;
    }

    private Procedure procedure() {
        return Procedure.define(TYPE, tables.catalog()).params("k", "seq").body(b -> {
            for (int i = 1; i <= WRITES; i++) {
                b.write(table(i), row(CounterTables.CNT, in("seq")), in("k"));
            }
        }).build();
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        long[] seq = {0};
        return () -> TxnRequest.procedure(TYPE, Inputs.of((long) index, ++seq[0]));
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot s) {
        List<String> problems = new ArrayList<>();
        Map<Long, Long> first = new HashMap<>();
        s.forEach(table(1), (k, r) -> first.put(k.part(0), r.getLong(CounterTables.CNT)));
        for (int i = 2; i <= WRITES; i++) {
            String t = table(i);
            if (s.count(t) != first.size()) {
                problems.add(t + " has " + s.count(t) + " rows but w1 " + first.size());
            }
            s.forEach(t, (k, r) -> {
                long c = r.getLong(CounterTables.CNT);
                Long c1 = first.get(k.part(0));
                if (c1 == null || c1 != c) {
                    if (problems.size() < 20) {
                        problems.add(t + "[" + k.part(0) + "] has cnt " + c + " but w1 " + c1);
                    }
                }
            });
        }
        long total = first.values().stream().mapToLong(Long::longValue).sum();
        String summary = first.size() + " clients' rows, " + total + " transactions, equal in all seven tables";
        return problems.isEmpty() ? ConsistencyResult.ok(summary) : ConsistencyResult.violated(summary, problems);
    }
}
