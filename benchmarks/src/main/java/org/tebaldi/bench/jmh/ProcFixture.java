package org.tebaldi.bench.jmh;

import java.util.AbstractList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.tpcc.NewOrder;
import org.tebaldi.bench.tpcc.Payment;
import org.tebaldi.bench.tpcc.TpccBenchmark;
import org.tebaldi.bench.tpcc.TpccClient;
import org.tebaldi.bench.tpcc.TpccConfig;
import org.tebaldi.bench.tpcc.TpccLoader;
import org.tebaldi.bench.tpcc.TpccSchema;
import org.tebaldi.cc.rp.analysis.RpAnalysis;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.proc.ProcRun;
import org.tebaldi.core.proc.ProcStep;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;

/**
 * TPC-C {@code new_order} or {@code payment} run by the stored-procedure interpreter alone (no coordinator, no
 * CC, no network) against an in-memory map, as the coordinator runs it: batched ({@link Procedure#startBatched},
 * every batch applied in order before the run resumes) or one operation at a time ({@link Procedure#start}). The
 * procedure is either the workload's own ({@code plain}) or runtime pipelining's rewrite of it for the group
 * {@code {new_order, payment}} ({@code rp}: the body the coordinator runs under the 3-layer tree, with scalar
 * expansion into local arrays).
 *
 * <p>The store: a small TPC-C database (2 warehouses, {@value #ITEMS} items, {@value #CUSTOMERS} customers per
 * district, {@value #ORDERS} orders per district) loaded by the workload's loader into a {@link HashMap}; reads
 * return the stored row, updates apply their {@code ExprUpdate} (a new row), writes replace the row, as a data
 * server would. Inputs: {@value #REQUESTS} requests of one client (home warehouse 1, seed 1, dates 0), generated at
 * setup and cycled. So that the map stays the same size however long the benchmark runs, each run first puts back the
 * loaded row of the district a {@code new_order} takes its order id from (its order, order lines and
 * {@code new_order} row overwrite those of the previous run of the same request) and of the customer a
 * {@code payment} charges (c_data of a bad-credit customer would grow); that costs two map operations, no
 * allocation. The result lists handed back to the run are reused. So the bytes a run allocates are the
 * interpreter's and the operations, updates and rows it produces. Not thread-safe.
 */
public final class ProcFixture {
    /** Transaction types. */
    public static final List<String> TXNS = List.of(NewOrder.NAME, Payment.NAME);
    /** Procedure forms: the workload's, and runtime pipelining's rewrite. */
    public static final List<String> FORMS = List.of("plain", "rp");
    /** Items (and stock rows per warehouse). */
    public static final int ITEMS = 10_000;
    /** Customers per district. */
    public static final int CUSTOMERS = 300;
    /** Initial orders per district. */
    public static final int ORDERS = 30;
    /** Requests generated at setup and cycled. */
    public static final int REQUESTS = 4096;
    private static final int MAX_STEPS = 1_000_000;

    private final Procedure procedure;
    private final boolean batched;
    private final Map<Key, Row> rows = new HashMap<>();
    private final Inputs[] inputs = new Inputs[REQUESTS];
    private final Key[] restoreKey = new Key[REQUESTS];
    private final Row[] restoreRow = new Row[REQUESTS];
    private final Results results = new Results();
    private int next;
    /** Operations applied so far. */
    private long applied;

    /**
     * @param txn     {@code new_order} or {@code payment}
     * @param form    {@code plain} or {@code rp}
     * @param batched batched execution (the coordinator's default) or one operation at a time
     * @throws IllegalArgumentException for another type or form
     */
    public ProcFixture(String txn, String form, boolean batched) {
        if (!TXNS.contains(txn) || !FORMS.contains(form)) {
            throw new IllegalArgumentException("txn must be one of " + TXNS + " and form one of " + FORMS + ", got "
                    + txn + " / " + form);
        }
        this.batched = batched;
        TpccBenchmark tpcc = new TpccBenchmark(TpccConfig.spec(2).withItems(ITEMS).withCustomersPerDistrict(CUSTOMERS)
                .withOrdersPerDistrict(ORDERS));
        Database db = tpcc.database();
        if (form.equals("rp")) {
            procedure = RpAnalysis.analyze(List.of(db.type(NewOrder.NAME), db.type(Payment.NAME)), db.catalog(), null)
                    .procedure(txn);
        } else {
            procedure = db.type(txn).procedure();
        }
        tpcc.loader(0L).load(rows::put, TpccLoader.Progress.NONE);
        TpccSchema s = tpcc.schema();
        TpccClient client = new TpccClient(tpcc.config(), tpcc.constants(), 0, 1L, () -> 0L);
        for (int i = 0; i < REQUESTS; i++) {
            Inputs in = client.next(txn).inputs();
            inputs[i] = in;
            restoreKey[i] = txn.equals(NewOrder.NAME) ? Key.of(s.district(), in.getLong(0), in.getLong(1))
                    : Key.of(s.customer(), in.getLong(2), in.getLong(3), in.getLong(4));
            restoreRow[i] = rows.get(restoreKey[i]);
            if (restoreRow[i] == null) {
                throw new IllegalStateException("request " + i + ": no row " + restoreKey[i]);
            }
        }
    }

    /** The procedure the runs interpret. */
    public Procedure procedure() {
        return procedure;
    }

    /** The stored rows (for tests). */
    public Map<Key, Row> rows() {
        return rows;
    }

    /** Operations applied so far. */
    public long applied() {
        return applied;
    }

    /**
     * Runs the next request to its end.
     *
     * @return the final step: {@link ProcStep.Done} (or {@link ProcStep.Abort}, which the generated inputs never
     *         cause)
     * @throws org.tebaldi.core.proc.ProcedureException on a run-time error in the procedure
     */
    public ProcStep run() {
        int i = next;
        next = (i + 1) % REQUESTS;
        rows.put(restoreKey[i], restoreRow[i]);
        return batched ? runBatched(inputs[i]) : runOneAtATime(inputs[i]);
    }

    private ProcStep runBatched(Inputs in) {
        ProcRun run = procedure.startBatched(in);
        results.size = 0;
        for (int steps = 0; steps < MAX_STEPS; steps++) {
            ProcStep s = run.resume(results);
            if (!(s instanceof ProcStep.Batch b)) {
                return s;
            }
            List<Op> ops = b.ops();
            results.ensure(ops.size());
            for (int k = 0; k < ops.size(); k++) {
                results.rows[k] = apply(ops.get(k));
            }
            results.size = ops.size();
        }
        throw new IllegalStateException(procedure.name() + " did not finish");
    }

    private ProcStep runOneAtATime(Inputs in) {
        ProcRun run = procedure.start(in);
        Row last = null;
        for (int steps = 0; steps < MAX_STEPS; steps++) {
            ProcStep s = run.next(last);
            if (!(s instanceof ProcStep.Issue is)) {
                return s;
            }
            last = apply(is.op());
        }
        throw new IllegalStateException(procedure.name() + " did not finish");
    }

    /** What a data server does with one operation; returns the result row the run gets back. */
    private Row apply(Op op) {
        applied++;
        Row old = rows.get(op.key());
        switch (op.kind()) {
            case READ, READ_FOR_UPDATE:
                return old;
            case WRITE:
                rows.put(op.key(), op.value());
                return null;
            case UPDATE:
                if (old == null) {
                    return null;
                }
                Row updated = op.update().apply(old);
                rows.put(op.key(), updated);
                return updated;
            case DELETE:
                rows.remove(op.key());
                return null;
            default:
                throw new IllegalStateException("unexpected operation " + op);
        }
    }

    /** The result rows of the last batch, as a list the run reads (reused: no allocation per batch). */
    private static final class Results extends AbstractList<Row> {
        Row[] rows = new Row[ProcRun.MAX_BATCH];
        int size;

        void ensure(int n) {
            if (rows.length < n) {
                rows = new Row[n];
            }
        }

        @Override
        public Row get(int index) {
            if (index >= size) {
                throw new IndexOutOfBoundsException(index + " of " + size);
            }
            return rows[index];
        }

        @Override
        public int size() {
            return size;
        }
    }
}
