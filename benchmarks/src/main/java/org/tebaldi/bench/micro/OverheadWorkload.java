package org.tebaldi.bench.micro;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * The layer-overhead microbenchmark (dissertation §4.6.5, Table 4.1): one transaction type {@code write7} of seven
 * writes, each incrementing {@code cnt} of row {@code k} of one of the tables {@code w1 .. w7}; client {@code i}
 * always uses {@code k = i}, so concurrent transactions never conflict and every difference between CC trees is the
 * cost of the layers themselves. Input (Long): {@code k}; output {@code cnt}: the new count of {@code w1[k]}.
 *
 * <p>Consistency: for every row {@code k}, the seven tables hold the same count; no row is missing.
 */
public final class OverheadWorkload implements Workload {
    /** The transaction type. */
    static final String TYPE = "write7";
    /** Number of writes (and tables). */
    static final int WRITES = 7;

    private final int rows;
    private final CounterTables tables = new CounterTables();
    private final Database db;

    /**
     * @param rows rows per table: the most clients a run may have (client {@code i} owns row {@code i})
     * @throws IllegalArgumentException for fewer than 1 row
     */
    public OverheadWorkload(int rows) {
        this.rows = rows;
        for (int i = 1; i <= WRITES; i++) {
            tables.add(table(i), rows);
        }
        db = new Database(tables.catalog());
        db.procedure(procedure());
    }

    private static String table(int i) {
        return "w" + i;
    }

    private Procedure procedure() {
        return Procedure.define(TYPE, tables.catalog()).params("k").body(b -> {
            for (int i = 1; i <= WRITES; i++) {
                b.update(table(i), "r" + i, List.of(set(CounterTables.CNT, add(col(CounterTables.CNT), lit(1L)))),
                        in("k"));
                b.abortIf(isNull(local("r" + i)), "write7: no row in " + table(i));
            }
            b.output("cnt", field("r1", CounterTables.CNT));
        }).build();
    }

    @Override
    public String name() {
        return "micro";
    }

    @Override
    public Database database() {
        return db;
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
        tables.load(loader, progress);
    }

    /** @throws IllegalArgumentException if {@code index} is not below the row count (clients would conflict) */
    @Override
    public ClientSource newClient(int index, long seed) {
        if (index >= rows) {
            throw new IllegalArgumentException("the layer-overhead benchmark gives each client its own row: client "
                    + index + " needs workload.rows above " + index + " (have " + rows + ")");
        }
        TxnRequest req = TxnRequest.procedure(TYPE, Inputs.of((long) index));
        return () -> req;
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot s) {
        List<String> problems = new ArrayList<>();
        tables.checkRowCounts(s, problems);
        Map<Long, Long> first = new HashMap<>();
        s.forEach(table(1), (k, r) -> first.put(k.part(0), r.getLong(CounterTables.CNT)));
        for (int i = 2; i <= WRITES; i++) {
            String t = table(i);
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
        String summary = total + " transactions' writes, equal in all seven tables";
        return problems.isEmpty() ? ConsistencyResult.ok(summary) : ConsistencyResult.violated(summary, problems);
    }
}
