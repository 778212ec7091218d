package org.tebaldi.core.proc.analysis;

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

/**
 * An in-memory data server for the analysis tests (like the proc tests' FakeStore): applies issued operations to
 * a map, records them, and sums a run up as an {@link Outcome} that two runs can be compared by.
 */
final class TestStore {
    final Catalog catalog;
    final Map<Key, Row> rows = new HashMap<>();
    final List<Op> ops = new ArrayList<>();

    TestStore(Catalog catalog) {
        this.catalog = catalog;
    }

    /** A copy of the rows (not of the operation log). */
    TestStore copy() {
        TestStore c = new TestStore(catalog);
        c.rows.putAll(rows);
        return c;
    }

    void put(String table, long[] key, Object... values) {
        rows.put(Key.of(catalog.table(table), key), catalog.table(table).row(values));
    }

    Row get(String table, long... key) {
        return rows.get(Key.of(catalog.table(table), key));
    }

    /**
     * How a run ended: {@code kind} DONE (with outputs), ABORT (with the reason) or ERROR (a run-time
     * ProcedureException, message kept apart); {@code rows} is the final store, rolled back on abort and error.
     */
    record Outcome(String kind, String detail, Map<String, String> rows, String message) {
        boolean sameAs(Outcome o) {
            return kind.equals(o.kind) && detail.equals(o.detail) && rows.equals(o.rows);
        }
    }

    /** Runs {@code p} like a TC would, undoing its writes if it does not finish. */
    Outcome run(Procedure p, Object... inputs) {
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

    private ProcStep drive(Procedure p, Object... inputs) {
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

    private static String show(Map<String, Object> outputs) {
        Map<String, String> m = new TreeMap<>();
        outputs.forEach((k, v) -> m.put(k, v instanceof Object[] a ? Arrays.deepToString(a)
                : v instanceof long[] a ? Arrays.toString(a) : String.valueOf(v)));
        return m.toString();
    }

    /** Table names of the issued operations, in order. */
    List<String> tables() {
        return ops.stream().map(o -> catalog.table(o.key().table()).name()).toList();
    }

    Row apply(Op op) {
        ops.add(op);
        switch (op.kind()) {
            case READ:
            case READ_FOR_UPDATE:
                return rows.get(op.key());
            case WRITE:
                rows.put(op.key(), op.value());
                return null;
            case UPDATE: {
                Row old = rows.get(op.key());
                if (old == null) {
                    return null;
                }
                Row updated = op.update().apply(old);
                rows.put(op.key(), updated);
                return updated;
            }
            case DELETE:
                rows.remove(op.key());
                return null;
            default:
                throw new AssertionError(op.kind());
        }
    }
}
