package org.tebaldi.core.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;

/**
 * A tiny in-memory data server for tests: applies every issued {@link Op} to a map and feeds the result back,
 * the way a TC drives a {@link ProcRun}. Records the operations in issue order.
 */
final class FakeStore {
    final Catalog catalog;
    final Map<Key, Row> rows = new HashMap<>();
    final List<Op> ops = new ArrayList<>();

    FakeStore(Catalog catalog) {
        this.catalog = catalog;
    }

    /** Stores a row of {@code table} given its values in column order. */
    void put(String table, long[] key, Object... values) {
        TableSchema t = catalog.table(table);
        rows.put(Key.of(t, key), Row.of(t, values));
    }

    Row get(String table, long... key) {
        return rows.get(Key.of(catalog.table(table), key));
    }

    /** Runs {@code p} to its end (Done or Abort); runtime errors propagate. */
    ProcStep run(Procedure p, Object... inputs) {
        ProcRun run = p.start(Inputs.of(inputs));
        Row last = null;
        for (int steps = 0; steps < 100_000; steps++) {
            ProcStep s = run.next(last);
            if (!(s instanceof ProcStep.Issue issue)) {
                return s;
            }
            last = apply(issue.op());
        }
        throw new AssertionError("procedure did not finish");
    }

    /** Round trips of the last {@link #runBatched}: batches issued. */
    int batches;

    /** Runs {@code p} batched ({@link Procedure#startBatched}), applying each batch's ops in order. */
    ProcStep runBatched(Procedure p, Object... inputs) {
        ProcRun run = p.startBatched(Inputs.of(inputs));
        List<Row> results = List.of();
        batches = 0;
        for (int steps = 0; steps < 100_000; steps++) {
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
    Map<String, Object> outputs(Procedure p, Object... inputs) {
        ProcStep s = run(p, inputs);
        return assertInstanceOf(ProcStep.Done.class, s, () -> "expected Done, got " + s).outputs();
    }

    /** What a data server does with one operation; returns the result row fed back to the run. */
    Row apply(Op op) {
        ops.add(op);
        switch (op.kind()) {
            case READ:
            case READ_FOR_UPDATE:
                return rows.get(op.key());
            case WRITE:
                assertEquals(op.key().table(), op.value().table().id(), "written row of the key's table");
                rows.put(op.key(), op.value());
                return null;
            case UPDATE: {
                Row old = rows.get(op.key());
                if (old == null) {
                    return null;
                }
                Row updated = op.update().apply(old);
                assertNotNull(updated);
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
