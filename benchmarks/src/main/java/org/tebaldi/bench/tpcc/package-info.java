/**
 * TPC-C adapted to the Tebaldi key-value store (dissertation §4.6, §5.6; docs/experiments.md, "How the workloads are adapted").
 *
 * <p>Entry point: {@link org.tebaldi.bench.tpcc.TpccBenchmark} built from a {@link org.tebaldi.bench.tpcc.TpccConfig}
 * (warehouses, scale knobs, {@link org.tebaldi.bench.tpcc.TpccMix mix}, seed). It hands out what a workload adapter
 * needs, through small interfaces of this package that do not depend on the runner:
 * <ul>
 *   <li>{@code database()}: the {@link org.tebaldi.core.db.Database} (schema {@link org.tebaldi.bench.tpcc.TpccSchema}
 *       plus the mix's transaction types);</li>
 *   <li>{@code loader()}: {@link org.tebaldi.bench.tpcc.TpccLoader#load(java.util.function.BiConsumer,
 *       org.tebaldi.bench.tpcc.TpccLoader.Progress)} hands every initial row to a {@code BiConsumer<Key, Row>};</li>
 *   <li>{@code newClient(index, seed)}: a {@link org.tebaldi.bench.tpcc.TpccClient} whose {@code next()} returns a
 *       {@link org.tebaldi.bench.tpcc.TpccRequest} (type, inputs, interactive body or null for a stored
 *       procedure);</li>
 *   <li>{@code consistency()}: {@link org.tebaldi.bench.tpcc.TpccConsistency#check(java.util.function.Function,
 *       org.tebaldi.bench.tpcc.TpccConsistency.TableScan)} over a {@code Function<Key, Row>} and a per-table scan,
 *       returning a {@link org.tebaldi.bench.tpcc.ConsistencyReport}.</li>
 * </ul>
 *
 * <p>Transactions, one class each: stored procedures {@link org.tebaldi.bench.tpcc.NewOrder},
 * {@link org.tebaldi.bench.tpcc.Payment}, {@link org.tebaldi.bench.tpcc.Delivery}, {@link org.tebaldi.bench.tpcc.HotItem}
 * (Fig 4.9); interactive read-only {@link org.tebaldi.bench.tpcc.OrderStatus} and
 * {@link org.tebaldi.bench.tpcc.StockLevel} (Fig 5.3).
 *
 * <p>Adaptations to a key-value store without scans (dissertation §4.6 and this package): payment and order_status
 * select customers by id only (no last names, no 60/40 rule); a {@code customer_last_order} table indexes each
 * customer's latest order; no 1% rolled-back new_orders; a {@code district_deliv} cursor replaces delivery's search
 * for the oldest new order; history rows are keyed by customer plus a client-generated sequence number; BC
 * customers' c_data is not truncated at 500 characters (the procedure language has no substring); filler strings
 * are drawn from pools of pre-generated spec-length strings to bound the heap. Details are on each class.
 */
package org.tebaldi.bench.tpcc;
