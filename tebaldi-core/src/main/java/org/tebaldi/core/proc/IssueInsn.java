package org.tebaldi.core.proc;

import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.OpKind;

/**
 * An instruction that issues one storage operation ({@link Insn}): it evaluates the key's parts unboxed, builds the
 * operation — a read, read-for-update or delete here; a write ({@link Write}) or an update ({@link Update}) in the
 * subclasses — and either suspends the run on it ({@link ProcStep.Issue}, the result goes to {@code resultSlot})
 * or, in a batched run, defers it to the run's {@link Batch} and continues. Package-private.
 */
class IssueInsn extends Insn {
    final OpKind kind;
    final TableSchema table;
    private final Ev.OfLong[] key;
    /** Local receiving the result row, or -1. */
    final int resultSlot;

    IssueInsn(int stmt, String label, OpKind kind, TableSchema table, Ev.OfLong[] key, int resultSlot) {
        super(stmt, label);
        this.kind = kind;
        this.table = table;
        this.key = key;
        this.resultSlot = resultSlot;
    }

    @Override
    final ProcStep exec(Run r) {
        long[] parts = r.keyBuffer(key.length);
        for (int i = 0; i < parts.length; i++) {
            parts[i] = key[i].eval(r);
        }
        Op op = op(Key.of(table.id(), parts), r);
        r.pc++;
        if (r.batched()) {
            r.defer(this, op);
            return null;
        }
        r.awaitResult(this);
        return new ProcStep.Issue(op);
    }

    Op op(Key k, Run r) {
        switch (kind) {
            case READ:
                return Op.read(k);
            case READ_FOR_UPDATE:
                return Op.readForUpdate(k);
            case DELETE:
                return Op.delete(k);
            default:
                throw new IllegalStateException(kind.name());
        }
    }

    /** Issues a write of a row built from column evaluators (other columns null). */
    static final class Write extends IssueInsn {
        private final int[] columns;
        private final Ev[] values;

        Write(int stmt, String label, TableSchema table, Ev.OfLong[] key, int[] columns, Ev[] values) {
            super(stmt, label, OpKind.WRITE, table, key, -1);
            this.columns = columns;
            this.values = values;
        }

        @Override
        Op op(Key k, Run r) {
            Object[] row = r.rowBuffer(table.columns().size());
            for (int i = 0; i < columns.length; i++) {
                row[columns[i]] = Values.forColumn(table, columns[i], values[i].eval(r));
            }
            return Op.write(k, Row.of(table, row));
        }
    }

    /** Issues an update carrying an {@link ExprUpdate}: evaluates the template's holes at the TC. */
    static final class Update extends IssueInsn {
        private final UpdateTemplate template;

        Update(int stmt, String label, TableSchema table, Ev.OfLong[] key, int resultSlot, UpdateTemplate template) {
            super(stmt, label, OpKind.UPDATE, table, key, resultSlot);
            this.template = template;
        }

        @Override
        Op op(Key k, Run r) {
            Ev[] holes = template.holes();
            Object[] args = new Object[holes.length];
            for (int i = 0; i < args.length; i++) {
                args[i] = Values.captureResolved(holes[i].eval(r));
            }
            return Op.update(k, new ExprUpdate(template, args));
        }
    }
}
