package org.tebaldi.core.proc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Inputs;

/**
 * One execution of a {@link Program}: a program counter and the local slots. {@link #next} runs instructions
 * until one suspends (a data operation) or ends the run; there is no thread and no recursion across suspension
 * points. Single-threaded, like the TC that drives it (docs/architecture.md, "Runtime"). Package-private.
 */
final class Run extends Frame implements ProcRun {
    private final Program program;
    private final boolean batched;
    int pc;
    private Insn.Issue pending;
    private final java.util.ArrayList<Insn.Issue> batchInsns = new java.util.ArrayList<>();
    private final java.util.ArrayList<org.tebaldi.core.txn.Op> batchOps = new java.util.ArrayList<>();
    /** Deferred null checks of the batch: the result to check, when the check ran, and the abort to return. */
    private record Check(int index, long seq, ProcStep.Abort abort) {
    }

    private final java.util.ArrayList<Check> checks = new java.util.ArrayList<>(0);
    /** Instructions executed so far (orders deferred checks and derived values as the one-at-a-time run would). */
    private long executed;
    private Insn current;
    /** The earliest derived value of the batch that failed, when its results arrived, or null. */
    private Pending.Placeholder failed;
    private EvalException failure;
    private boolean finished;
    private Map<String, Object> outputs;
    private long[][] keyBuffers;

    Run(Program program, Inputs inputs, boolean batched) {
        super(new Object[program.slots()], inputs.values(), null);
        this.program = program;
        this.batched = batched;
    }

    @Override
    public ProcStep resume(java.util.List<Row> results) {
        if (!batched) {
            throw new IllegalStateException(program.name() + ": not a batched run");
        }
        if (finished) {
            throw new IllegalStateException(program.name() + ": run already finished");
        }
        if (results.size() != batchInsns.size()) {
            throw new IllegalStateException(program.name() + ": " + results.size() + " results for a batch of "
                    + batchInsns.size());
        }
        Insn at = null;
        failed = null;
        try {
            for (int i = 0; i < results.size(); i++) {
                Row row = results.get(i);
                Insn.Issue issue = batchInsns.get(i);
                if (row != null && row.table().id() != issue.table.id()) {
                    throw new EvalException("result row is of table " + row.table().name() + ", expected "
                            + issue.table.name());
                }
            }
            resolve(results);
            batchInsns.clear();
            batchOps.clear();
            Check abort = null;
            for (Check c : checks) {
                if (results.get(c.index()) == null && (abort == null || c.seq() < abort.seq())) {
                    abort = c;
                }
            }
            if (abort != null && (failed == null || abort.seq() < failed.seq())) {
                checks.clear();
                finished = true;
                return abort.abort();
            }
            if (failed != null) {
                at = failed.at();
                throw failure;
            }
            checks.clear();
            Insn[] code = program.code();
            while (true) {
                at = code[pc];
                current = at;
                executed++;
                ProcStep s;
                try {
                    s = at.exec(this);
                } catch (RuntimeException e) {
                    if (e != Pending.FLUSH) {
                        throw e;
                    }
                    if (batchOps.isEmpty()) {
                        throw new EvalException("a pending value with no operation in flight");
                    }
                    return batch();
                }
                if (s == null) {
                    if (batchOps.size() >= MAX_BATCH) {
                        return batch();
                    }
                    continue;
                }
                if (s instanceof ProcStep.Done && !batchOps.isEmpty()) {
                    return batch();
                }
                finished = true;
                return s;
            }
        } catch (RuntimeException e) {
            finished = true;
            throw program.error(at, e);
        }
    }

    private ProcStep batch() {
        return new ProcStep.Batch(java.util.List.copyOf(batchOps));
    }

    /** Batched runs: called by the issuing instruction instead of suspending. */
    boolean batched() {
        return batched;
    }

    /** A null check of the result of the batch's operation {@code index}, deferred to its arrival. */
    void deferNullCheck(int index, ProcStep.Abort abort) {
        checks.add(new Check(index, executed, abort));
    }

    /** Instructions executed so far. */
    long executed() {
        return executed;
    }

    /** The instruction executing now. */
    Insn current() {
        return current;
    }

    /** Adds {@code op} to the batch; its result goes to the instruction's slot, a placeholder until then. */
    void defer(Insn.Issue issue, org.tebaldi.core.txn.Op op) {
        batchInsns.add(issue);
        batchOps.add(op);
        if (issue.resultSlot >= 0) {
            locals[issue.resultSlot] = new Pending.Placeholder(batchInsns.size() - 1, null, -1, executed, issue);
            stored(locals, issue.resultSlot);
        }
    }

    /** Where placeholders were stored during the batch: a local slot or an array element each. */
    private final java.util.ArrayList<Object[]> holders = new java.util.ArrayList<>();
    private final it.unimi.dsi.fastutil.ints.IntArrayList holderIndex = new it.unimi.dsi.fastutil.ints.IntArrayList();

    /** {@code container[i]} was just assigned: remembers it if it holds placeholders (directly or in an array). */
    void stored(Object[] container, int i) {
        Object v = container[i];
        if (v instanceof Pending.Placeholder) {
            holders.add(container);
            holderIndex.add(i);
        } else if (v instanceof Object[] a && Pending.holds(a)) {
            for (int k = 0; k < a.length; k++) {
                stored(a, k);
            }
        }
    }

    /** Replaces every placeholder stored during the batch with its value. */
    private void resolve(java.util.List<Row> results) {
        for (int h = 0; h < holders.size(); h++) {
            Object[] c = holders.get(h);
            int i = holderIndex.getInt(h);
            if (c[i] instanceof Pending.Placeholder p) {
                c[i] = value(p, results);
            }
        }
        holders.clear();
        holderIndex.clear();
    }

    private Object value(Pending.Placeholder p, java.util.List<Row> results) {
        Row row = results.get(p.index());
        if (p.derive() == null) {
            return row;
        }
        Object[] scratch = new Object[locals.length];
        scratch[p.slot()] = row;
        try {
            return p.derive().eval(new Frame(scratch, inputs, null));
        } catch (EvalException e) {
            if (failed == null || p.seq() < failed.seq()) {
                failed = p;
                failure = e;
            }
            return null;
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
                        finished = true;
                    }
                    return s;
                }
            }
        } catch (RuntimeException e) {
            finished = true;
            throw program.error(at, e);
        }
    }

    private void storeResult(Row row) {
        Insn.Issue p = pending;
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
    void awaitResult(Insn.Issue issue) {
        pending = issue;
    }

    /** A reusable array of {@code n} key parts (Key.of copies it). */
    long[] keyBuffer(int n) {
        if (keyBuffers == null) {
            keyBuffers = new long[program.maxArity() + 1][];
        }
        long[] b = keyBuffers[n];
        if (b == null) {
            b = new long[n];
            keyBuffers[n] = b;
        }
        return b;
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
