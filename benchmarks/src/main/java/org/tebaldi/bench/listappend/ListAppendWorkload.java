package org.tebaldi.bench.listappend;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.listappend.Anomaly;
import org.tebaldi.core.history.listappend.ListAppendChecker;
import org.tebaldi.core.history.listappend.ListAppendRecorder;
import org.tebaldi.core.history.listappend.ListAppendTxns;
import org.tebaldi.core.history.listappend.Outcome;
import org.tebaldi.core.history.listappend.Result;
import org.tebaldi.core.model.Key;

/**
 * The list-append workload for experiments ({@code workload: list-append}; docs/experiments.md "Workloads"): the transactions of
 * {@link ListAppendTxns} with update types {@value #T_A}, {@value #T_B}, {@value #T_C} and read-only {@value #T_RO}
 * over tables {@code la} and {@code lb}. Clients record what each attempt observed and how it ended (through the
 * request's outcome listener); the consistency check ({@code verify: true}) reads every key's final list from the
 * final state and runs the black-box {@link ListAppendChecker} on the recorded history — independent of the
 * engine-order serializability checker, which {@code verify} runs as well.
 */
public final class ListAppendWorkload implements Workload {
    /** The registered name. */
    public static final String NAME = "list-append";
    /** Transaction types. */
    public static final String T_A = "t_a";
    public static final String T_B = "t_b";
    public static final String T_C = "t_c";
    public static final String T_RO = "t_ro";

    /** Anomalies listed among the consistency problems. */
    static final int LISTED = 20;

    private final ListAppendTxns txns;

    /** @param options the transactions' options (user aborts are ignored: the benchmark driver commits every body) */
    public ListAppendWorkload(ListAppendTxns.Options options) {
        this.txns = new ListAppendTxns(List.of(T_A, T_B, T_C, T_RO), Set.of(T_RO),
                new ListAppendTxns.Options(options.keysPerTable(), options.maxOps(), options.readOnlyShare(), 0,
                        options.batchShare()), new ListAppendRecorder());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Database database() {
        return txns.database();
    }

    /** The recorder (what clients observed so far). */
    public ListAppendRecorder recorder() {
        return txns.recorder();
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
        int keys = txns.options().keysPerTable();
        loader.expect(ListAppendTxns.TABLE_A, keys);
        loader.expect(ListAppendTxns.TABLE_B, keys);
        txns.load(loader::load);
        progress.report(ListAppendTxns.TABLE_B, keys, keys);
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        Random rnd = new Random(seed);
        return () -> {
            ListAppendTxns.Plan plan = txns.plan(rnd);
            ListAppendRecorder.Attempt[] current = new ListAppendRecorder.Attempt[1];
            return TxnRequest.interactive(plan.type(), txns.inputs(plan), t -> {
                ListAppendRecorder.Attempt a = recorder().begin();
                current[0] = a;
                return txns.run(t, plan, a);
            }, failure -> {
                ListAppendRecorder.Attempt a = current[0];
                current[0] = null;
                if (a != null) {
                    a.end(failure == null ? Outcome.COMMITTED : ListAppendTxns.outcomeOf(failure));
                }
            });
        };
    }

    /** Records every key's final list from {@code snapshot}, then checks the history black-box. */
    @Override
    public ConsistencyResult check(DatabaseSnapshot snapshot) {
        for (Key k : txns.keys()) {
            recorder().finalRead(txns.keyName(k), ListAppendTxns.list(snapshot.get(k)));
        }
        Result r = ListAppendChecker.check(recorder().history());
        String[] lines = r.summary(0).split("\n");
        String summary = lines[0] + "; " + lines[1];
        if (r.valid()) {
            return ConsistencyResult.ok(summary);
        }
        List<String> problems = new ArrayList<>();
        for (Anomaly a : r.violations()) {
            if (problems.size() == LISTED) {
                problems.add("... and " + (r.total() - LISTED) + " more");
                break;
            }
            problems.add(a.toString());
        }
        return ConsistencyResult.violated(summary, problems);
    }
}
