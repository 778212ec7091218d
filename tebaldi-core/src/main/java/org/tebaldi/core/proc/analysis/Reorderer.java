package org.tebaldi.core.proc.analysis;

import java.util.List;
import java.util.function.ToIntFunction;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.ProcedureException;
import org.tebaldi.core.proc.Stmt;

/**
 * Reorders a stored procedure so that its data accesses run in non-decreasing step order on every input: the
 * transformation runtime pipelining needs before it chops a transaction into steps (dissertation §2.3.1,
 * §4.4.2; Callas §4). The runtime derives an operation's step from its table, so the result must issue every
 * access of step {@code i} before any access of a later step.
 *
 * <p>How (see {@link Dependencies} for the dependence kinds):
 * <ol>
 *   <li>Every statement gets the earliest step its dependencies allow: an access its table's step, a
 *       computation the highest step of what it depends on, or "free" (before all steps) if it depends on no
 *       step. Statements of one step keep their program order, so accesses within a step, outputs of one name
 *       and user aborts keep their relative order.</li>
 *   <li>The body is written step by step. An {@code if} whose statements fall into several steps is split: its
 *       condition is evaluated once into a temp ({@code let c$7 = cond}) and each step's part is guarded by
 *       {@code if (c$7)}. A {@code for} is split the same way (loop fission, bounds evaluated once); a local
 *       assigned in one step's part of the loop and read in a later part is expanded into an array indexed by the
 *       iteration (scalar expansion). Row locals read in a later step outside any split loop simply stay
 *       assigned.</li>
 * </ol>
 *
 * <p>Aborts. An abort ends the run and the transaction is rolled back, so running an access earlier than the
 * original did, even before an {@code abortIf} that would have stopped the original first, changes nothing
 * visible: such accesses are moved freely. What is kept: (1) a statement never runs before the condition of an
 * enclosing {@code if} is known (so an abort under a condition, and everything it guards textually inside the
 * {@code if}, stay under it); (2) a statement that reads a local tested by an earlier {@code abortIf} stays after
 * that abort (guard dependency: {@code abortIf(isNull(local("c")))} then {@code field("c", ..)} never turns a
 * user abort into a null-row error); (3) user aborts keep their program order, and inside a loop they all run in
 * one step, so the abort reason is the original's; (4) computations are not hoisted above a preceding abort
 * unless something that must run earlier needs them. The one difference left: a moved access or computation
 * whose evaluation fails for another reason (e.g. a key reading a parameter that is null) may fail before a user
 * abort the original reached first; both runs abort and write nothing.
 *
 * <p>Equivalence, for every input and store: when the original finishes, the reordered procedure issues the same
 * operations (in another order), leaves the same rows and produces the same outputs; when the original ends with a
 * user abort, so does the reordered one, with the same reason (it may have issued other accesses first, all
 * rolled back), except as just said; a run-time error of the original is a run-time error or a user abort of
 * the reordered one.
 *
 * <p>Limits, reported as {@link ProcedureException}: an access that depends on an access of a later step
 * ({@code "p: accesses cannot run in step order: statement 7 (update stock) on table stock (step 2) depends on
 * statement 5 (read order_line) on table order_line (step 3)"}); inside a loop that must be split, one local
 * assigned both by an access and by a statement that has to run in a later step, or a row or array local of one
 * step copied whole ({@code let y = local(x)}) in a later step; scalar expansion inside nested split loops needing
 * more than 2^20 elements. Unreachable statements (after a statement that always aborts) are dropped. A condition
 * or loop bound over parameters and literals only is evaluated again by each part (same value, no temp).
 */
public final class Reorderer {
    private Reorderer() {
    }

    /**
     * Reorders {@code p} by the steps of {@code stepOf}.
     *
     * @param stepOf table name to its step ({@code >= 0}), or {@code -1} for a table that belongs to no step and
     *               may be accessed at any time (e.g. a replicated read-only table)
     * @return an equivalent procedure (same name and parameters) whose accesses run in non-decreasing step order;
     *         its new locals contain {@code $}
     * @throws ProcedureException       if no such order exists (see the class doc)
     * @throws IllegalArgumentException if {@code stepOf} returns a value below -1
     */
    public static Procedure reorder(Procedure p, ToIntFunction<String> stepOf) {
        ProcTree t = ProcTree.of(p);
        Placement placement = Placement.solve(t, DepGraph.of(t), stepOf);
        List<Stmt> body = Tidy.apply(new Emitter(t, placement).emit(), t.temps);
        try {
            return p.withBody(body);
        } catch (ProcedureException e) {
            throw new IllegalStateException(p.name() + ": the reordered body does not compile (reorderer bug): "
                    + e.getMessage() + "; body: " + body, e);
        }
    }
}
