package org.tebaldi.core.proc;

import java.util.Arrays;

/**
 * The working storage of one {@link Run}: its local slots (object and primitive, see {@link Frame}), its
 * {@link Batch} (batched runs), and the buffers it builds keys and written rows in. None of it leaves the run (keys,
 * rows, outputs and the operations of a batch are copies), so when a run ends — done, aborted by the procedure, or
 * failed — its workspace goes back to its program's {@link Pool} and the next run of the program takes it: a run
 * allocates no storage of its own once the program has run a few times. A run the coordinator drops unfinished
 * (its transaction aborted) keeps its workspace, which the garbage collector then takes. Package-private.
 */
final class Workspace {
    private static final long[] NO_PRIMS = new long[0];

    final Object[] locals;
    final long[] prims;
    private final Program program;
    private Batch batch;
    private long[][] keyBuffers;
    private Object[][] rowBuffers;

    private Workspace(Program program) {
        this.program = program;
        this.locals = new Object[program.slots()];
        this.prims = program.prims() == 0 ? NO_PRIMS : new long[program.prims()];
    }

    /** A workspace for a new run of {@code program}: a finished run's, or a new one. */
    static Workspace take(Program program) {
        Workspace w = program.workspaces().take();
        return w != null ? w : new Workspace(program);
    }

    /**
     * Gives the workspace back to its program's pool, emptied so that it keeps nothing of the run alive (locals,
     * batch, row buffers; primitive slots need no clearing: a local is always assigned before it is read). The run
     * must not use it afterwards.
     */
    void release() {
        Arrays.fill(locals, null);
        if (batch != null) {
            batch.clear();
        }
        if (rowBuffers != null) {
            for (Object[] b : rowBuffers) {
                if (b != null) {
                    Arrays.fill(b, null);
                }
            }
        }
        program.workspaces().give(this);
    }

    /** The batch of a batched run. */
    Batch batch() {
        if (batch == null) {
            batch = new Batch();
        }
        return batch;
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

    /** A reusable array of {@code n} nulls for the values of a written row (Row.of copies it). */
    Object[] rowBuffer(int n) {
        if (rowBuffers == null || rowBuffers.length <= n) {
            rowBuffers = rowBuffers == null ? new Object[n + 1][] : Arrays.copyOf(rowBuffers, n + 1);
        }
        Object[] b = rowBuffers[n];
        if (b == null) {
            b = new Object[n];
            rowBuffers[n] = b;
        } else {
            Arrays.fill(b, null);
        }
        return b;
    }

    /**
     * The workspaces of a program's finished runs, at most {@value #MAX} (more are left to the garbage collector).
     * Shared by the coordinator threads that run the program; each call holds the pool's lock for a few
     * instructions.
     */
    static final class Pool {
        /** Workspaces kept at most: about the number of runs of one program in flight at once. */
        static final int MAX = 256;
        private final Workspace[] free = new Workspace[MAX];
        private int size;

        /** A free workspace, or null. */
        synchronized Workspace take() {
            if (size == 0) {
                return null;
            }
            Workspace w = free[--size];
            free[size] = null;
            return w;
        }

        synchronized void give(Workspace w) {
            if (size < MAX) {
                free[size++] = w;
            }
        }

        /** Workspaces in the pool now. */
        synchronized int size() {
            return size;
        }
    }
}
