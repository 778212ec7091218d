package org.tebaldi.bench.postgres;

import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.db.Database;
import org.tebaldi.server.node.Partitioner;

/**
 * The workload as the driver sees it on a SQL target: the same clients and requests (same types, same inputs, same
 * random streams), each turned into a call of its type, since on SQL every type — interactive ones included — has
 * one SQL implementation taking the request's inputs ({@link org.tebaldi.bench.workload.sql.SqlTxn}). Loading and
 * checking go through the SQL runner instead.
 */
final class ProcedureRequests implements Workload {
    private final Workload w;

    ProcedureRequests(Workload w) {
        this.w = w;
    }

    @Override
    public String name() {
        return w.name();
    }

    @Override
    public Database database() {
        return w.database();
    }

    @Override
    public Partitioner partitioner(int dataServers) {
        return w.partitioner(dataServers);
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
        w.load(loader, progress);
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        ClientSource s = w.newClient(index, seed);
        return () -> {
            TxnRequest r = s.next();
            return r.isProcedure() ? r : TxnRequest.procedure(r.type(), r.inputs());
        };
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot snapshot) {
        throw new UnsupportedOperationException("on a SQL target the consistency check runs in SQL");
    }
}
