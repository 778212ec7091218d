package org.tebaldi.bench.micro;

import java.util.List;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.proc.Procedure;

/**
 * What the microbenchmarks share: the name {@code micro}, {@link CounterTables} as the data, loaded row by row, and
 * a database of stored procedures over them. A subclass adds its tables, then calls {@link #define} once from its
 * constructor.
 */
abstract class CounterWorkload implements Workload {
    /** The tables; added to by the subclass constructor before {@link #define}. */
    final CounterTables tables = new CounterTables();
    private Database db;

    /**
     * Creates the database over the tables added so far, with {@code procedures} as its transaction types.
     *
     * @throws IllegalStateException if called twice
     */
    final void define(List<Procedure> procedures) {
        if (db != null) {
            throw new IllegalStateException("the database is already defined");
        }
        db = new Database(tables.catalog());
        procedures.forEach(db::procedure);
    }

    @Override
    public final String name() {
        return "micro";
    }

    @Override
    public final Database database() {
        return db;
    }

    @Override
    public final void load(DataLoader loader, Progress progress) {
        tables.load(loader, progress);
    }
}
