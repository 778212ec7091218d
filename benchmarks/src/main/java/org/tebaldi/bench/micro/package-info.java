/**
 * The microbenchmarks of dissertation §4.6.4–4.6.5 as experiment workloads ({@code workload: {name: micro,
 * benchmark: ...}}, {@link org.tebaldi.bench.micro.MicroFactory}): the cross-group CC benchmark of Fig 4.10
 * ({@link org.tebaldi.bench.micro.CrossGroupWorkload}: ww-1/5/10, rw-1/5/10), the two-vs-three-layer benchmark of
 * Fig 4.11 ({@link org.tebaldi.bench.micro.LayersWorkload}) and the layer-overhead benchmark of Table 4.1
 * ({@link org.tebaldi.bench.micro.OverheadWorkload}). Every transaction is a stored procedure; every table is a
 * counter table ({@code CounterTables}) so that each benchmark's consistency conditions are equal counter sums that a
 * lost update breaks. The TPC-C extensibility experiment ({@code hot_item}, §4.6.3) is the {@code tpcc} workload
 * with {@code mix: hot_item}.
 */
package org.tebaldi.bench.micro;
