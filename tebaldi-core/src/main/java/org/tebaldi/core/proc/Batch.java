package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Op;

/**
 * The batch a batched {@link Run} is assembling, and what it still owes the run when the results come back
 * ({@link Pending}): the issuing instruction and the operation of each member; the derived values (result row,
 * {@link Pending.Derivation}); the deferred null checks (result row, abort, and how many derived values preceded
 * it, which orders checks and derivations as the one-at-a-time run would meet them); and every place (a local slot
 * or an array element) a placeholder was stored in. All of it in arrays that grow as needed and are reused from
 * batch to batch, and from run to run ({@link Workspace}), so a batch allocates nothing here but the list of its
 * operations. Single-threaded, like its run. Package-private.
 */
final class Batch {
    private static final int INITIAL = 16;
    final ArrayList<IssueInsn> issues = new ArrayList<>(INITIAL);
    final ArrayList<Op> ops = new ArrayList<>(INITIAL);

    private int[] derivedRow;
    private Pending.Derivation[] derivedHow;
    private int derivedCount;

    private int[] checkRow;
    private int[] checkAfter;
    private ProcStep.Abort[] checkAbort;
    private int checkCount;

    private Object[][] holder;
    private int[] holderIndex;
    private int holderCount;

    /** The earliest derived value that failed in the last {@link #resolve} (-1: none), its derivation and error. */
    private int failed = -1;
    private Pending.Derivation failedHow;
    private EvalException failure;

    Batch() {
        derivedRow = new int[INITIAL];
        derivedHow = new Pending.Derivation[INITIAL];
        checkRow = new int[INITIAL];
        checkAfter = new int[INITIAL];
        checkAbort = new ProcStep.Abort[INITIAL];
        holder = new Object[INITIAL][];
        holderIndex = new int[INITIAL];
    }

    /** Forgets everything (a run ended, possibly with a batch in flight), keeping the arrays for the next run. */
    void clear() {
        issues.clear();
        ops.clear();
        Arrays.fill(holder, 0, holderCount, null);
        holderCount = 0;
        Arrays.fill(derivedHow, 0, derivedCount, null);
        derivedCount = 0;
        Arrays.fill(checkAbort, 0, checkCount, null);
        checkCount = 0;
        failed = -1;
        failedHow = null;
        failure = null;
    }

    int size() {
        return ops.size();
    }

    boolean isEmpty() {
        return ops.isEmpty();
    }

    /** Adds {@code op}, issued by {@code issue}; returns the placeholder of its result. */
    Pending.Placeholder add(IssueInsn issue, Op op) {
        issues.add(issue);
        ops.add(op);
        return Pending.result(ops.size() - 1);
    }

    /** The batch as a step for the coordinator (the operations copied: the lists are reused). */
    ProcStep.Batch step() {
        return new ProcStep.Batch(List.copyOf(ops));
    }

    /** A value {@code how} derives from the result behind {@code row} (not itself derived); returns its placeholder. */
    Pending.Placeholder derive(Pending.Placeholder row, Pending.Derivation how) {
        if (derivedCount == derivedRow.length) {
            int n = grow(derivedCount);
            derivedRow = Arrays.copyOf(derivedRow, n);
            derivedHow = Arrays.copyOf(derivedHow, n);
        }
        derivedRow[derivedCount] = row.id;
        derivedHow[derivedCount] = how;
        return Pending.derived(derivedCount++);
    }

    /** A null check of the result behind {@code row}, deferred to its arrival; ends the run with {@code abort}. */
    void deferNullCheck(Pending.Placeholder row, ProcStep.Abort abort) {
        if (checkCount == checkRow.length) {
            int n = grow(checkCount);
            checkRow = Arrays.copyOf(checkRow, n);
            checkAfter = Arrays.copyOf(checkAfter, n);
            checkAbort = Arrays.copyOf(checkAbort, n);
        }
        checkRow[checkCount] = row.id;
        checkAfter[checkCount] = derivedCount;
        checkAbort[checkCount] = abort;
        checkCount++;
    }

    /** {@code container[i]} was just assigned: remembers it if it holds placeholders (directly or in an array). */
    void stored(Object[] container, int i) {
        Object v = container[i];
        if (v instanceof Pending.Placeholder) {
            if (holderCount == holder.length) {
                int n = grow(holderCount);
                holder = Arrays.copyOf(holder, n);
                holderIndex = Arrays.copyOf(holderIndex, n);
            }
            holder[holderCount] = container;
            holderIndex[holderCount] = i;
            holderCount++;
        } else if (v instanceof Object[] a && Pending.holds(a)) {
            for (int k = 0; k < a.length; k++) {
                stored(a, k);
            }
        }
    }

    private static int grow(int n) {
        return Math.max(8, n * 2);
    }

    /**
     * The results arrived: replaces every placeholder stored during the batch with its value (a derived value is
     * computed by {@code run}, see {@link Run#derivedValue}; one that fails is left null and the earliest such
     * failure kept for {@link #failure}), then empties the batch. {@code results} must match the batch (checked by
     * the caller).
     */
    void resolve(List<Row> results, Run run) {
        failed = -1;
        failedHow = null;
        failure = null;
        for (int h = 0; h < holderCount; h++) {
            Object[] c = holder[h];
            int i = holderIndex[h];
            holder[h] = null;
            if (c[i] instanceof Pending.Placeholder p) {
                Object v = null;
                if (!p.derived) {
                    v = results.get(p.id);
                } else {
                    Pending.Derivation how = derivedHow[p.id];
                    try {
                        v = run.derivedValue(how, results.get(derivedRow[p.id]));
                    } catch (EvalException e) {
                        if (failed < 0 || p.id < failed) {
                            failed = p.id;
                            failedHow = how;
                            failure = e;
                        }
                    }
                }
                run.put(c, i, v);
            }
        }
        holderCount = 0;
        derivedCount = 0;
        issues.clear();
        ops.clear();
    }

    /**
     * After {@link #resolve}: the abort of the earliest deferred null check whose row is absent, if the one-at-a-time
     * run would have met it before the earliest failed derived value (or none failed); else null. Forgets the checks.
     */
    ProcStep.Abort abortFirst(List<Row> results) {
        ProcStep.Abort abort = null;
        for (int c = 0; c < checkCount; c++) {
            if (abort == null && results.get(checkRow[c]) == null && (failed < 0 || checkAfter[c] <= failed)) {
                abort = checkAbort[c];
            }
            checkAbort[c] = null;
        }
        checkCount = 0;
        return abort;
    }

    /** After {@link #resolve}: the error of the earliest failed derived value, or null. */
    EvalException failure() {
        return failure;
    }

    /** After {@link #resolve}: the derivation that failed first (its statement names the error), or null. */
    Pending.Derivation failedDerivation() {
        return failedHow;
    }
}
