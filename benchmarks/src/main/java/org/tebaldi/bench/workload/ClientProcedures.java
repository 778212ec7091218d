package org.tebaldi.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.cc.rp.analysis.StepPlan;
import org.tebaldi.cc.rp.analysis.TableGraph;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.ProcRun;
import org.tebaldi.core.proc.ProcStep;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.analysis.Reorderer;
import org.tebaldi.core.txn.Inputs;

/**
 * A stored procedure run by the client as an interactive transaction ({@code workload.execution: interactive},
 * {@link ExecutionModes}; dissertation §4.6: the experiments of Chapter 4 ran before stored procedures, every
 * transaction interactive): the client interprets the procedure and sends each operation through the
 * {@link Transaction} — one at a time ({@link ProcRun#next}), or what needs no earlier result together
 * ({@link ProcRun#resume}, {@link Transaction#executeAll}) — then the driver commits.
 *
 * <p>Interactive code is not reordered by the coordinator, and runtime pipelining aborts a transaction that goes
 * back to an earlier step; so, like an application written for a pipeline, the client runs the procedure in its
 * own table order: the steps of the type's own table graph ({@link TableGraph}, {@link StepPlan}: the order runtime
 * pipelining's analysis gives the procedure alone, tables on a dependency cycle merged), which it declares as the
 * type's access order ({@link #accessOrder}), and it issues the accesses in that order ({@link Reorderer}). The
 * declared order is a chain, so every group's plan — whatever other types share it — keeps its tables in that
 * order.
 */
final class ClientProcedures {
    private ClientProcedures() {
    }

    /** The type's own steps (replicated tables in none). */
    static StepPlan plan(Procedure p, Catalog catalog) {
        TxnType t = new TxnType(0, p.name(), p.params(), p.readOnly(), p, List.of());
        return StepPlan.of(TableGraph.of(List.of(t), catalog), null);
    }

    /**
     * The access order declared for {@code p} run interactively: its steps' tables in step order, each step of
     * several tables closed by its first table again (the cycle keeps them in one step of any group's plan).
     */
    static List<String> accessOrder(StepPlan plan) {
        List<String> out = new ArrayList<>();
        for (Set<String> step : plan.steps()) {
            out.addAll(step);
            if (step.size() > 1) {
                out.add(step.iterator().next());
            }
        }
        return out;
    }

    /**
     * {@code p} reordered into {@code plan}'s step order: what the client runs.
     *
     * @throws org.tebaldi.core.proc.ProcedureException if the procedure cannot be reordered (see {@link Reorderer})
     */
    static Procedure program(Procedure p, StepPlan plan, Catalog catalog) {
        return Reorderer.reorder(p, t -> catalog.table(t).replicated() ? -1 : plan.stepOf(t));
    }

    /**
     * Runs {@code program} on {@code t} (begun, not committed): completes with its outputs, or fails — with an
     * {@link IllegalStateException} {@code "user abort: <reason>"} for the procedure's own abort, with the
     * transaction's failure otherwise. Never blocks.
     *
     * @param batched send the operations that need no earlier result together (else one at a time)
     */
    static CompletableFuture<Map<String, Object>> run(Transaction t, Procedure program, Inputs inputs,
                                                      boolean batched) {
        ProcRun r = batched ? program.startBatched(inputs) : program.start(inputs);
        return step(t, r, batched ? r.resume(List.of()) : r.next(null));
    }

    private static CompletableFuture<Map<String, Object>> step(Transaction t, ProcRun r, ProcStep s) {
        if (s instanceof ProcStep.Done d) {
            return CompletableFuture.completedFuture(d.outputs());
        }
        if (s instanceof ProcStep.Abort a) {
            return CompletableFuture.failedFuture(new IllegalStateException("user abort: " + a.reason()));
        }
        if (s instanceof ProcStep.Issue is) {
            return t.execute(is.op()).thenCompose(row -> step(t, r, r.next(row)));
        }
        ProcStep.Batch b = (ProcStep.Batch) s;
        return t.executeAll(new ArrayList<>(b.ops())).thenCompose(rows -> step(t, r, r.resume(rows)));
    }
}
