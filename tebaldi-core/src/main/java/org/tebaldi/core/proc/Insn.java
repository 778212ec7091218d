package org.tebaldi.core.proc;

import java.util.Map;

/**
 * One instruction of a compiled procedure ({@link Program}). {@link #exec} runs it on a {@link Run}, sets the
 * run's program counter and returns null to continue, or the {@link ProcStep} at which the run suspends or ends.
 * Instructions are immutable after compilation (jump targets are patched once by the {@link Compiler}) and shared
 * by all runs. Values of kind LONG and DOUBLE ({@link Kinds}) stay unboxed: loop variables and bounds, key parts,
 * indexes, sizes and conditions are evaluated as primitives, and a local of such a kind lives in its primitive
 * slot ({@link Frame}). The instructions that issue a storage operation are {@link IssueInsn}s. Package-private.
 */
abstract class Insn {
    /** Statement number (1-based, pre-order) and label for error messages. */
    final int stmt;
    final String label;

    Insn(int stmt, String label) {
        this.stmt = stmt;
        this.label = label;
    }

    abstract ProcStep exec(Run r);

    /** An array index checked against the array's length: from an unboxed long or a boxed value. */
    @FunctionalInterface
    interface Index {
        int of(Frame f, int length);
    }

    /** {@code locals[slot] = value} for a local of kind ANY or BOOL (arrays copied when {@code copy}). */
    static final class Let extends Insn {
        private final int slot;
        private final Ev value;
        private final boolean copy;

        Let(int stmt, String label, int slot, Ev value, boolean copy) {
            super(stmt, label);
            this.slot = slot;
            this.value = value;
            this.copy = copy;
        }

        @Override
        ProcStep exec(Run r) {
            Object v = value.eval(r);
            r.locals[slot] = copy ? Values.capture(v) : v;
            if (r.batched()) {
                r.stored(r.locals, slot);
            }
            r.pc++;
            return null;
        }
    }

    /**
     * {@code local = value} for a local of kind LONG or DOUBLE: its primitive slot gets the value's bits, unless
     * {@code pending} (null if the value can never be in flight) yields a placeholder, which goes to its object slot.
     */
    static final class LetPrim extends Insn {
        private final int slot;
        private final int prim;
        private final Ev pending;
        private final Ev.OfLong bits;

        LetPrim(int stmt, String label, int slot, int prim, Ev pending, Ev.OfLong bits) {
            super(stmt, label);
            this.slot = slot;
            this.prim = prim;
            this.pending = pending;
            this.bits = bits;
        }

        @Override
        ProcStep exec(Run r) {
            Object m = pending == null ? null : pending.eval(r);
            if (m != null) {
                r.locals[slot] = m;
                r.stored(r.locals, slot);
            } else {
                long v = bits.eval(r);
                r.locals[slot] = null;
                r.prims[prim] = v;
            }
            r.pc++;
            return null;
        }
    }

    /** Continues if the condition is true, else jumps to {@code target}. */
    static final class Branch extends Insn {
        private final Ev.OfBool cond;
        int target = -1;

        Branch(int stmt, String label, Ev.OfBool cond) {
            super(stmt, label);
            this.cond = cond;
        }

        @Override
        ProcStep exec(Run r) {
            r.pc = cond.eval(r) ? r.pc + 1 : target;
            return null;
        }
    }

    /** Unconditional jump. */
    static final class Jump extends Insn {
        int target = -1;

        Jump(int stmt, String label) {
            super(stmt, label);
        }

        @Override
        ProcStep exec(Run r) {
            r.pc = target;
            return null;
        }
    }

    /**
     * Loop entry: evaluates the bounds, checks the iteration bound, sets the loop variable to {@code from} (its
     * primitive slot {@code varPrim}, or boxed in its object slot if it has none: a loop variable assigned
     * something else than a long elsewhere) and the hidden bound slot {@code toPrim} to {@code to}.
     */
    static final class ForInit extends Insn {
        private final int varSlot;
        private final int varPrim;
        private final int toPrim;
        private final Ev.OfLong from;
        private final Ev.OfLong to;
        private final int max;

        ForInit(int stmt, String label, int varSlot, int varPrim, int toPrim, Ev.OfLong from, Ev.OfLong to,
                int max) {
            super(stmt, label);
            this.varSlot = varSlot;
            this.varPrim = varPrim;
            this.toPrim = toPrim;
            this.from = from;
            this.to = to;
            this.max = max;
        }

        @Override
        ProcStep exec(Run r) {
            long a = from.eval(r);
            long b = to.eval(r);
            if (b > a && (b - a > max || b - a < 0)) {
                throw new EvalException("range " + a + ".." + b + " is " + (b - a < 0 ? "more than "
                        + Long.MAX_VALUE : String.valueOf(b - a)) + " iterations, more than maxIterations " + max);
            }
            if (varPrim >= 0) {
                r.locals[varSlot] = null;
                r.prims[varPrim] = a;
            } else {
                r.locals[varSlot] = a;
            }
            r.prims[toPrim] = b;
            r.pc++;
            return null;
        }
    }

    /** Loop test: enters the body if {@code var < to}, else jumps to {@code end}. */
    static final class ForTest extends Insn {
        private final int varSlot;
        private final int varPrim;
        private final int toPrim;
        int end = -1;

        ForTest(int stmt, String label, int varSlot, int varPrim, int toPrim) {
            super(stmt, label);
            this.varSlot = varSlot;
            this.varPrim = varPrim;
            this.toPrim = toPrim;
        }

        @Override
        ProcStep exec(Run r) {
            long v = varPrim >= 0 ? r.prims[varPrim] : (Long) r.locals[varSlot];
            r.pc = v < r.prims[toPrim] ? r.pc + 1 : end;
            return null;
        }
    }

    /** Loop step: increments the variable and jumps back to the test. */
    static final class ForNext extends Insn {
        private final int varSlot;
        private final int varPrim;
        private final int test;

        ForNext(int stmt, String label, int varSlot, int varPrim, int test) {
            super(stmt, label);
            this.varSlot = varSlot;
            this.varPrim = varPrim;
            this.test = test;
        }

        @Override
        ProcStep exec(Run r) {
            if (varPrim >= 0) {
                r.prims[varPrim]++;
            } else {
                r.locals[varSlot] = (Long) r.locals[varSlot] + 1;
            }
            r.pc = test;
            return null;
        }
    }

    /** {@code locals[slot] = new Object[size]}. */
    static final class NewArray extends Insn {
        private final int slot;
        private final Ev.OfLong size;

        NewArray(int stmt, String label, int slot, Ev.OfLong size) {
            super(stmt, label);
            this.slot = slot;
            this.size = size;
        }

        @Override
        ProcStep exec(Run r) {
            r.locals[slot] = new Object[Values.arraySize(size.eval(r))];
            r.pc++;
            return null;
        }
    }

    /** {@code locals[slot][index] = value}. */
    static final class SetElem extends Insn {
        private final int slot;
        private final Index index;
        private final Ev value;

        SetElem(int stmt, String label, int slot, Index index, Ev value) {
            super(stmt, label);
            this.slot = slot;
            this.index = index;
            this.value = value;
        }

        @Override
        ProcStep exec(Run r) {
            Object a = r.locals[slot];
            if (!(a instanceof Object[] array)) {
                throw new EvalException("setElem on " + Values.kind(a) + ", not a local array");
            }
            int i = index.of(r, array.length);
            array[i] = Values.capture(value.eval(r));
            if (r.batched()) {
                r.stored(array, i);
            }
            r.pc++;
            return null;
        }
    }

    /** Records an output value. */
    static final class Output extends Insn {
        private final String name;
        private final Ev value;

        Output(int stmt, String label, String name, Ev value) {
            super(stmt, label);
            this.name = name;
            this.value = value;
        }

        @Override
        ProcStep exec(Run r) {
            r.output(name, Values.captureResolved(value.eval(r)));
            r.pc++;
            return null;
        }
    }

    /**
     * {@code abortIf(isNull(local))}: ends the run with a user abort if the local is null. In a batched run, when
     * the local is a read still in flight, the check is deferred to the moment its result arrives (the abort then
     * comes before any later instruction runs) instead of holding back the operations that follow. A local with a
     * primitive slot ({@code prim}) is never null.
     */
    static final class AbortIfNull extends Insn {
        private final int slot;
        private final boolean prim;
        private final ProcStep.Abort step;

        AbortIfNull(int stmt, String label, int slot, boolean prim, String reason) {
            super(stmt, label);
            this.slot = slot;
            this.prim = prim;
            this.step = new ProcStep.Abort(reason);
        }

        @Override
        ProcStep exec(Run r) {
            Object v = r.locals[slot];
            if (v instanceof Pending.Placeholder p) {
                if (p.derived) {
                    throw Pending.FLUSH;
                }
                r.deferNullCheck(p, step);
            } else if (v == null && !prim) {
                return step;
            } else {
                Pending.need(v);
            }
            r.pc++;
            return null;
        }
    }

    /** Ends the run with a user abort. */
    static final class Abort extends Insn {
        private final ProcStep.Abort step;

        Abort(int stmt, String label, String reason) {
            super(stmt, label);
            this.step = new ProcStep.Abort(reason);
        }

        @Override
        ProcStep exec(Run r) {
            return step;
        }
    }

    /** Ends the run with its outputs. */
    static final class End extends Insn {
        End() {
            super(0, "end");
        }

        @Override
        ProcStep exec(Run r) {
            Map<String, Object> out = r.outputs();
            return new ProcStep.Done(out);
        }
    }
}
