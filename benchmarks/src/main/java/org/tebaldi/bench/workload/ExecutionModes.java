package org.tebaldi.bench.workload;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.cc.rp.analysis.StepPlan;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.server.node.Partitioner;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.ProcedureException;

/**
 * How the client runs a workload's transaction types — two options every workload takes (docs/experiments.md, "Writing an
 * experiment"; docs/simulation.md, "The dissertation's setup"):
 * <ul>
 *   <li>{@code execution}: {@code procedures} (default) runs each type as the workload defines it — its stored
 *       procedures called in one request and run by the coordinator, its interactive types from the client (TPC-C:
 *       new_order, payment, delivery and hot_item are procedures, order_status and stock_level interactive, as in
 *       dissertation §5.6); {@code interactive} runs every stored procedure from the client as an interactive
 *       transaction ({@link ClientProcedures}: declared as an interactive type with its access order, the
 *       procedure interpreted by the client) — Chapter 4's experiments (§4.6) ran before stored procedures
 *       existed.</li>
 *   <li>{@code roundTrips}: {@code batched} (default) lets an interactive transaction send operations that need no
 *       earlier result together ({@code Transaction.executeAll}, TPC-C's batched reads); {@code per-operation}
 *       sends one operation per round trip ({@link OneOpPerRoundTrip}). Stored procedures run by the coordinator
 *       are not affected (their batching is {@code cluster.batching}). A workload option {@code batchedReads: true}
 *       given explicitly contradicts {@code per-operation} and is rejected.</li>
 * </ul>
 * With both at their defaults the workload is used as it is; otherwise it is wrapped. The wrapper's
 * {@link #database()} is the converted database (same catalog, same type names and ids), which node processes
 * build alike from the same options.
 */
public final class ExecutionModes implements Workload {
    /** The {@code execution} option's values. */
    static final List<String> EXECUTION = List.of("procedures", "interactive");
    /** The {@code roundTrips} option's values. */
    static final List<String> ROUND_TRIPS = List.of("batched", "per-operation");

    private final Workload inner;
    private final boolean perOperation;
    private final Database db;
    /** Per converted type name, the program the client runs. */
    private final Map<String, Procedure> programs = new HashMap<>();

    private ExecutionModes(Workload inner, boolean interactive, boolean perOperation) {
        this.inner = inner;
        this.perOperation = perOperation;
        Database d = inner.database();
        if (!interactive) {
            this.db = d;
            return;
        }
        this.db = new Database(d.catalog());
        for (TxnType t : d.types()) {
            if (!t.isProcedure()) {
                db.interactive(t.name(), t.readOnly(), t.accessOrder(), t.params().toArray(String[]::new));
                continue;
            }
            StepPlan plan = ClientProcedures.plan(t.procedure(), d.catalog());
            programs.put(t.name(), ClientProcedures.program(t.procedure(), plan, d.catalog()));
            db.interactive(t.name(), t.readOnly(), ClientProcedures.accessOrder(plan),
                    t.params().toArray(String[]::new));
        }
    }

    /**
     * Reads {@code execution} and {@code roundTrips} from {@code options} and wraps {@code w} unless both are at
     * their defaults.
     *
     * @throws ConfigException for an unknown value, {@code batchedReads: true} with {@code per-operation}, or a
     *                         procedure the client cannot run in table order
     */
    public static Workload wrap(Workload w, WorkloadOptions options) {
        boolean interactive = options.getString("execution", EXECUTION.get(0), EXECUTION.toArray(String[]::new))
                .equals("interactive");
        boolean perOperation = perOperation(options);
        if (perOperation && options.has("batchedReads")
                && Boolean.TRUE.equals(options.resolved().get("batchedReads"))) {
            throw options.error("batchedReads", "batchedReads: true sends reads together, roundTrips: per-operation "
                    + "one per round trip", "remove batchedReads (per-operation reads one by one), or use "
                    + "roundTrips: batched");
        }
        if (!interactive && !perOperation) {
            return w;
        }
        try {
            return new ExecutionModes(w, interactive, perOperation);
        } catch (ProcedureException | IllegalArgumentException x) {
            throw options.error("execution", "a stored procedure cannot run interactively in table order: "
                    + x.getMessage(), "use execution: procedures for this workload");
        }
    }

    /**
     * Whether {@code options} ask for one operation per round trip ({@code roundTrips: per-operation}); a factory
     * may read it first, e.g. to resolve its own batching option to what the run does.
     *
     * @throws ConfigException for an unknown value
     */
    public static boolean perOperation(WorkloadOptions options) {
        return options.getString("roundTrips", ROUND_TRIPS.get(0), ROUND_TRIPS.toArray(String[]::new))
                .equals("per-operation");
    }

    /** The workload wrapped. */
    public Workload inner() {
        return inner;
    }

    /** Types the client runs as interactive transactions although the workload defines them as procedures. */
    public java.util.Set<String> converted() {
        return java.util.Collections.unmodifiableSet(programs.keySet());
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public Database database() {
        return db;
    }

    @Override
    public Partitioner partitioner(int dataServers) {
        return inner.partitioner(dataServers);
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
        inner.load(loader, progress);
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        ClientSource src = inner.newClient(index, seed);
        return () -> convert(src.next());
    }

    private TxnRequest convert(TxnRequest r) {
        if (r.isProcedure()) {
            Procedure p = programs.get(r.type());
            if (p == null) {
                return r;
            }
            return new TxnRequest(r.type(), r.inputs(), t -> ClientProcedures.run(perOperation
                    ? new OneOpPerRoundTrip(t) : t, p, r.inputs(), !perOperation), r.onEnd());
        }
        if (!perOperation) {
            return r;
        }
        return new TxnRequest(r.type(), r.inputs(), t -> r.body().apply(new OneOpPerRoundTrip(t)), r.onEnd());
    }

    @Override
    public Shifts shifts() {
        return inner.shifts();
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot snapshot) {
        return inner.check(snapshot);
    }
}
