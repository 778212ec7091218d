package org.tebaldi.bench.driver;

import java.util.concurrent.atomic.AtomicLong;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.txn.Inputs;

/** A workload for {@link ScriptedClient}: every client issues the given type with fresh inputs each time. */
final class ScriptedWorkload implements Workload {
    private final Database db;
    private final String[] mix;
    final AtomicLong requests = new AtomicLong();

    /** @param mix the types a client issues, in rotation */
    ScriptedWorkload(String... mix) {
        this.mix = mix;
        Catalog c = new Catalog();
        c.add("t", 1, 0, false, Catalog.longCol("v"));
        db = new Database(c);
        for (String t : new String[] {"ok", "flaky", "broken"}) {
            db.interactive(t, false, "n");
        }
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public Database database() {
        return db;
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        int[] i = {0};
        return () -> {
            long n = requests.incrementAndGet();
            return TxnRequest.procedure(mix[i[0]++ % mix.length], Inputs.of(n));
        };
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot snapshot) {
        return ConsistencyResult.ok("scripted");
    }
}
