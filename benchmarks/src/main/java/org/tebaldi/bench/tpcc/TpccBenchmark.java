package org.tebaldi.bench.tpcc;

import java.util.Objects;
import org.tebaldi.core.db.Database;

/**
 * TPC-C adapted to the key-value store (dissertation §4.6, docs/experiments.md): the entry point a workload adapter
 * wraps. It owns the config, the schema ({@link TpccSchema}), the database definition (tables plus transaction
 * types: stored procedures {@link NewOrder}, {@link Payment}, {@link Delivery} and, under the hot_item mix,
 * {@link HotItem}; interactive read-only {@link OrderStatus} and {@link StockLevel}) and the run's NURand
 * constants, and makes loaders, clients and consistency checkers that share them.
 */
public final class TpccBenchmark {
    private final TpccConfig cfg;
    private final TpccSchema schema;
    private final Database db;
    private final NuRandConstants constants;

    /** Builds the schema, the database definition and the NURand constants for {@code cfg}. */
    public TpccBenchmark(TpccConfig cfg) {
        this.cfg = Objects.requireNonNull(cfg);
        this.schema = new TpccSchema();
        this.constants = NuRandConstants.fromSeed(cfg.seed());
        this.db = new Database(schema.catalog());
        db.procedure(NewOrder.procedure(schema));
        db.procedure(Payment.procedure(schema));
        db.procedure(Delivery.procedure(schema));
        db.interactive(OrderStatus.NAME, true, OrderStatus.ACCESS_ORDER, OrderStatus.PARAMS);
        db.interactive(StockLevel.NAME, true, StockLevel.ACCESS_ORDER, StockLevel.PARAMS);
        if (cfg.mix() == TpccMix.HOT_ITEM) {
            db.procedure(HotItem.procedure(schema));
        }
    }

    /** Workload name: {@code tpcc} or {@code tpcc-hot_item}. */
    public String name() {
        return cfg.mix() == TpccMix.HOT_ITEM ? "tpcc-hot_item" : "tpcc";
    }

    /** The config this benchmark was built from. */
    public TpccConfig config() {
        return cfg;
    }

    /** The tables. */
    public TpccSchema schema() {
        return schema;
    }

    /**
     * The database definition. Its transaction types are exactly the mix's ({@link TpccMix#types()}), so a CC tree
     * for the standard mix need not name {@code hot_item}.
     */
    public Database database() {
        return db;
    }

    /** The run's NURand constants (derived from the seed), shared by loader and clients. */
    public NuRandConstants constants() {
        return constants;
    }

    /** A loader whose dates are the current time (rows are deterministic per seed apart from dates). */
    public TpccLoader loader() {
        return loader(System.currentTimeMillis());
    }

    /** A loader with a fixed load time (fully deterministic per seed). */
    public TpccLoader loader(long loadTimeMillis) {
        return new TpccLoader(cfg, schema, constants, loadTimeMillis);
    }

    /**
     * The input generator of client {@code index} (0-based, unique per run), dates from the wall clock.
     *
     * @param seed this client's seed
     */
    public TpccClient newClient(int index, long seed) {
        return new TpccClient(cfg, constants, index, seed, System::currentTimeMillis);
    }

    /** A consistency checker over this schema. */
    public TpccConsistency consistency() {
        return new TpccConsistency(schema);
    }
}
