package org.tebaldi.bench.seats;

import java.util.Objects;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.db.Database;

/**
 * SEATS as an experiment workload (dissertation §4.6.2, §5.6.2; docs/experiments.md): the {@link SeatsSchema} tables, the
 * stored procedures {@link NewReservation}, {@link DeleteReservation}, {@link UpdateReservation} (each with a
 * {@code flight_id} input for partition-by-instance) and the interactive {@link UpdateCustomer}, {@link FindFlights},
 * {@link FindOpenSeats} (read-only, declared access orders), the {@link SeatsLoader} data, {@link SeatsClient}s and
 * the {@link SeatsConsistency} conditions. Data is partitioned by flight (customers by customer id).
 */
public final class SeatsWorkload implements Workload {
    private final SeatsConfig cfg;
    private final SeatsSchema schema = new SeatsSchema();
    private final SeatsLayout layout;
    private final Database db;

    /** Builds the schema, the database definition and the layout for {@code cfg}. */
    public SeatsWorkload(SeatsConfig cfg) {
        this.cfg = Objects.requireNonNull(cfg);
        this.layout = new SeatsLayout(cfg);
        this.db = new Database(schema.catalog());
        db.procedure(NewReservation.procedure(schema));
        db.procedure(DeleteReservation.procedure(schema));
        db.procedure(UpdateReservation.procedure(schema));
        db.interactive(UpdateCustomer.NAME, false, UpdateCustomer.ACCESS_ORDER, UpdateCustomer.PARAMS);
        db.interactive(FindFlights.NAME, true, FindFlights.ACCESS_ORDER, FindFlights.PARAMS);
        db.interactive(FindOpenSeats.NAME, true, FindOpenSeats.ACCESS_ORDER, FindOpenSeats.PARAMS);
    }

    @Override
    public String name() {
        return "seats";
    }

    @Override
    public Database database() {
        return db;
    }

    /** The scale. */
    public SeatsConfig config() {
        return cfg;
    }

    /** The tables. */
    public SeatsSchema schema() {
        return schema;
    }

    /** The initial layout. */
    public SeatsLayout layout() {
        return layout;
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
        SeatsLoader l = new SeatsLoader(schema, layout);
        l.expectedRows().forEach(loader::expect);
        l.load(loader::load, progress);
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        return new SeatsClient(layout, index, seed);
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot snapshot) {
        return new SeatsConsistency(schema).check(snapshot);
    }
}
