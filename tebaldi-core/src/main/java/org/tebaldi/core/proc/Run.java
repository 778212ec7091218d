package org.tebaldi.core.proc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Inputs;

/**
 * One execution of a {@link Program}: a program counter and the local slots. {@link #next} runs instructions
 * until one suspends (a data operation) or ends the run; there is no thread and no recursion across suspension
 * points. Single-threaded, like the TC that drives it (DESIGN.md §3). Package-private.
 */
final class Run extends Frame implements ProcRun {
    private final Program program;
    int pc;
    private Insn.Issue pending;
    private boolean finished;
    private Map<String, Object> outputs;
    private long[][] keyBuffers;

    Run(Program program, Inputs inputs) {
        super(new Object[program.slots()], inputs.values(), null);
        this.program = program;
    }

    @Override
    public ProcStep next(Row lastResult) {
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
