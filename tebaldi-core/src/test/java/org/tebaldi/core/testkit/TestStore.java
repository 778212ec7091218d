package org.tebaldi.core.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.proc.ProcRun;
import org.tebaldi.core.proc.ProcStep;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.ProcedureException;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.OpKind;

/**
 * An in-memory data server for the stored-procedure and runtime-pipelining analysis tests: runs a procedure as a
 * coordinator would (one operation at a time, or batched), applies the operations it issues to a map, records them,
 * and sums a run up as an {@link Outcome} that two runs (e.g. a procedure and its reordering) can be compared by.
 */
public final class TestStore {
    public final Catalog catalog;
    public final Map<Key, Row> rows = new HashMap<>();
    public final List<Op> ops = new ArrayList<>();

    public TestStore(Catalog catalog) {
        this.catalog = catalog;
    }

    /** A copy of the rows (not of the operation log). */
    public TestStore copy() {
        TestStore c = new TestStore(catalog);
        c.rows.putAll(rows);
        return c;
    }

    public void put(String table, long[] key, Object... values) {
        rows.put(Key.of(catalog.table(table), key), catalog.table(table).row(values));
    }

    public Row get(String table, long... key) {
        return rows.get(Key.of(catalog.table(table), key));
    }

    /**
     * How a run ended: {@code kind} DONE (with outputs), ABORT (with the reason) or ERROR (a run-time
     * ProcedureException, message kept apart); {@code rows} is the final store, rolled back on abort and error.
     */
    public record Outcome(String kind, String detail, Map<String, String> rows, String message) {
        public boolean sameAs(Outcome o) {
            return kind.equals(o.kind) && detail.equals(o.detail) && rows.equals(o.rows);
        }
    }

    /** Runs {@code p} like a TC would, undoing its writes if it does not finish. */
    public Outcome run(Procedure p, Object... inputs) {
        Map<Key, Row> before = new HashMap<>(rows);
        String kind;
        String detail;
        String message = "";
        try {
            ProcStep s = drive(p, inputs);
            if (s instanceof ProcStep.Done d) {
                kind = "DONE";
                detail = show(d.outputs());
            } else {
                kind = "ABORT";
                detail = ((ProcStep.Abort) s).reason();
            }
        } catch (ProcedureException e) {
            kind = "ERROR";
            detail = "";
            message = e.getMessage();
        }
        if (!kind.equals("DONE")) {
            rows.clear();
            rows.putAll(before);
        }
        Map<String, String> dump = new TreeMap<>();
        rows.forEach((k, v) -> dump.put(k.toString(), v.toString()));
        return new Outcome(kind, detail, dump, message);
    }

    /** Runs {@code p} one operation at a time to its end (Done or Abort); run-time errors propagate. */
    public ProcStep drive(Procedure p, Object... inputs) {
        ProcRun run = p.start(Inputs.of(inputs));
        Row last = null;
        for (int steps = 0; steps < 1_000_000; steps++) {
            ProcStep s = run.next(last);
            if (!(s instanceof ProcStep.Issue issue)) {
                return s;
            }
            last = apply(issue.op());
        }
        throw new AssertionError("procedure did not finish");
    }

    /** Batches issued by the last {@link #driveBatched}. */
    public int batches;

    /** Runs {@code p} batched ({@link Procedure#startBatched}) to its end, applying each batch's ops in order. */
    public ProcStep driveBatched(Procedure p, Object... inputs) {
        ProcRun run = p.startBatched(Inputs.of(inputs));
        List<Row> results = List.of();
        batches = 0;
        for (int steps = 0; steps < 1_000_000; steps++) {
            ProcStep s = run.resume(results);
            if (!(s instanceof ProcStep.Batch b)) {
                return s;
            }
            batches++;
            List<Row> r = new ArrayList<>();
            for (Op op : b.ops()) {
                r.add(apply(op));
            }
            results = r;
        }
        throw new AssertionError("procedure did not finish");
    }

    /** Runs {@code p} and returns its outputs, failing unless it ends with Done. */
    public Map<String, Object> outputs(Procedure p, Object... inputs) {
        ProcStep s = drive(p, inputs);
        if (!(s instanceof ProcStep.Done d)) {
            throw new AssertionError("expected Done, got " + s);
        }
        return d.outputs();
    }

    private static String show(Map<String, Object> outputs) {
        Map<String, String> m = new TreeMap<>();
        outputs.forEach((k, v) -> m.put(k, v instanceof Object[] a ? Arrays.deepToString(a)
                : v instanceof long[] a ? Arrays.toString(a) : String.valueOf(v)));
        return m.toString();
    }

    /** Table names of the issued operations, in order. */
    public List<String> tables() {
        return ops.stream().map(o -> catalog.table(o.key().table()).name()).toList();
    }

    /** What a data server does with one operation; returns the result row fed back to the run. */
    public Row apply(Op op) {
        ops.add(op);
        Row old = rows.get(op.key());
        Row next;
        switch (op.kind()) {
            case READ, READ_FOR_UPDATE -> {
                return old;
            }
            case WRITE -> next = op.value();
            case UPDATE -> next = old == null ? null : op.update().apply(old);
            case UPSERT -> next = old == null ? op.value() : op.update().apply(old);
            case DELETE -> {
                rows.remove(op.key());
                return null;
            }
            default -> throw new AssertionError(op.kind());
        }
        if (next == null) {
            if (op.kind() != OpKind.UPDATE) {
                throw new AssertionError(op.kind() + " of " + op.key() + " produced no row");
            }
            return null; // update of an absent row writes nothing
        }
        if (next.table().id() != op.key().table()) {
            throw new AssertionError("row of table " + next.table().name() + " written to " + op.key());
        }
        rows.put(op.key(), next);
        return op.kind() == OpKind.WRITE ? null : next;
    }
}
