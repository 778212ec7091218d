package org.tebaldi.core.proc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.proc.Kinds.Kind;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;

/**
 * One execution of a {@link Program}: a program counter and the local slots (boxed values, and the primitive slots
 * of locals of kind LONG or DOUBLE, see {@link Frame}). {@link #next} runs instructions until one suspends (a data
 * operation) or ends the run; {@link #resume} (batched) until it needs a result in flight ({@link Pending},
 * {@link Batch}). There is no thread and no recursion across suspension points. Its storage is a {@link Workspace},
 * which goes back to the program when the run ends (the run is then inert: every further call throws).
 * Single-threaded, like the TC that drives it (docs/architecture.md, "Runtime"). Package-private.
 */
final class Run extends Frame implements ProcRun {
    private final Program program;
    private final boolean batched;
    /** Until the run ends. */
    private Workspace workspace;
    /** Batched runs, until the run ends. */
    private Batch batch;
    int pc;
    /** One-at-a-time runs: the instruction whose result the next {@link #next} call delivers, or null. */
    private IssueInsn pending;
    private boolean finished;
    private Map<String, Object> outputs;

    Run(Program program, Inputs inputs, boolean batched) {
        this(program, Workspace.take(program), inputs, batched);
    }

    private Run(Program program, Workspace w, Inputs inputs, boolean batched) {
        super(w.locals, w.prims, inputs.values(), null);
        this.program = program;
        this.batched = batched;
        this.workspace = w;
        this.batch = batched ? w.batch() : null;
    }

    /** The run ended: its workspace goes back to the program. */
    private void finish() {
        finished = true;
        Workspace w = workspace;
        workspace = null;
        batch = null;
        w.release();
    }

    @Override
    public ProcStep resume(List<Row> results) {
        if (!batched) {
            throw new IllegalStateException(program.name() + ": not a batched run");
        }
        if (finished) {
            throw new IllegalStateException(program.name() + ": run already finished");
        }
        if (results.size() != batch.size()) {
            throw new IllegalStateException(program.name() + ": " + results.size() + " results for a batch of "
                    + batch.size());
        }
        Insn at = null;
        Pending.Derivation derivedAt = null;
        try {
            for (int i = 0; i < results.size(); i++) {
                Row row = results.get(i);
                IssueInsn issue = batch.issues.get(i);
                if (row != null && row.table().id() != issue.table.id()) {
                    at = issue;
                    throw new EvalException("result row is of table " + row.table().name() + ", expected "
                            + issue.table.name());
                }
            }
            batch.resolve(results, this);
            ProcStep.Abort abort = batch.abortFirst(results);
            if (abort != null) {
                finish();
                return abort;
            }
            if (batch.failure() != null) {
                derivedAt = batch.failedDerivation();
                throw batch.failure();
            }
            Insn[] code = program.code();
            while (true) {
                at = code[pc];
                ProcStep s;
                try {
                    s = at.exec(this);
                } catch (RuntimeException e) {
                    if (e != Pending.FLUSH) {
                        throw e;
                    }
                    if (batch.isEmpty()) {
                        throw new EvalException("a pending value with no operation in flight");
                    }
                    return batch.step();
                }
                if (s == null) {
                    if (batch.size() >= MAX_BATCH) {
                        return batch.step();
                    }
                    continue;
                }
                if (s instanceof ProcStep.Done && !batch.isEmpty()) {
                    return batch.step();
                }
                finish();
                return s;
            }
        } catch (RuntimeException e) {
            ProcedureException p = derivedAt != null ? program.error(derivedAt.stmt(), derivedAt.label(), e)
                    : program.error(at, e);
            finish();
            throw p;
        }
    }

    /** Batched runs: called by the issuing instruction instead of suspending. */
    boolean batched() {
        return batched;
    }

    /** Adds {@code op} to the batch; its result goes to the instruction's slot, a placeholder until then. */
    void defer(IssueInsn issue, Op op) {
        Pending.Placeholder p = batch.add(issue, op);
        if (issue.resultSlot >= 0) {
            locals[issue.resultSlot] = p;
            batch.stored(locals, issue.resultSlot);
        }
    }

    /** A null check of the result behind {@code row}, deferred to its arrival. */
    void deferNullCheck(Pending.Placeholder row, ProcStep.Abort abort) {
        batch.deferNullCheck(row, abort);
    }

    /** A value {@code how} derives from the result behind {@code row}: its placeholder. */
    Pending.Placeholder derive(Pending.Placeholder row, Pending.Derivation how) {
        return batch.derive(row, how);
    }

    /** {@code container[i]} was just assigned: the batch remembers it if it holds placeholders. */
    void stored(Object[] container, int i) {
        batch.stored(container, i);
    }

    /**
     * The value {@code how} derives from {@code row}: its expression evaluated on this run with its one local set
     * to {@code row} for the evaluation (it reads no other local), so nothing is allocated.
     *
     * @throws EvalException if the evaluation fails
     */
    Object derivedValue(Pending.Derivation how, Row row) {
        int slot = how.slot();
        Object saved = locals[slot];
        locals[slot] = row;
        try {
            return how.value().eval(this);
        } finally {
            locals[slot] = saved;
        }
    }

    /**
     * Stores resolved value {@code v} in place of a placeholder at {@code container[i]}: into the primitive slot
     * if {@code container} is the locals and slot {@code i} is primitive (a derived long or double; null, for a
     * derivation that failed, leaves 0).
     */
    void put(Object[] container, int i, Object v) {
        int p = container == locals ? program.primOf()[i] : -1;
        if (p < 0) {
            container[i] = v;
            return;
        }
        locals[i] = null;
        if (v == null) {
            prims[p] = 0;
        } else if (program.kinds()[i] == Kind.DOUBLE) {
            prims[p] = Double.doubleToRawLongBits((Double) v);
        } else {
            prims[p] = (Long) v;
        }
    }

    @Override
    public ProcStep next(Row lastResult) {
        if (batched) {
            throw new IllegalStateException(program.name() + ": a batched run resumes with resume(results)");
        }
        if (finished) {
            throw new IllegalStateException(program.name() + ": run already finished");
        }
        Insn at = pending;
        try {
            if (pending != null) {
                storeResult(lastResult);
            }
            Insn[] code = program.code();
            while (true) {
                at = code[pc];
                ProcStep s = at.exec(this);
                if (s != null) {
                    if (!(s instanceof ProcStep.Issue)) {
                        finish();
                    }
                    return s;
                }
            }
        } catch (RuntimeException e) {
            ProcedureException p = program.error(at, e);
            finish();
            throw p;
        }
    }

    private void storeResult(Row row) {
        IssueInsn p = pending;
        pending = null;
        if (p.resultSlot < 0) {
            return;
        }
        if (row != null && row.table().id() != p.table.id()) {
            throw new EvalException("result row is of table " + row.table().name() + ", expected " + p.table.name());
        }
        locals[p.resultSlot] = row;
    }

    /** Called by the issuing instruction: the next {@link #next} call delivers its result. */
    void awaitResult(IssueInsn issue) {
        pending = issue;
    }

    /** A reusable array of {@code n} key parts (Key.of copies it). */
    long[] keyBuffer(int n) {
        return workspace.keyBuffer(n);
    }

    /** A reusable array of {@code n} nulls for the values of a written row (Row.of copies it). */
    Object[] rowBuffer(int n) {
        return workspace.rowBuffer(n);
    }

    void output(String name, Object value) {
        if (outputs == null) {
            outputs = new LinkedHashMap<>();
        }
        outputs.put(name, value);
    }

    /** The outputs so far, in first-set order (unmodifiable). */
    Map<String, Object> outputs() {
        return outputs == null ? Map.of() : Collections.unmodifiableMap(outputs);
    }
}
