/**
 * YCSB (Cooper et al., SoCC 2010) in its transactional form (Sundial, DBx1000): one table, Zipf-distributed keys
 * ({@link org.tebaldi.bench.ycsb.ZipfianGenerator}, exact for any theta in [0, 2]), a read ratio and a number of operations per transaction
 * ({@link org.tebaldi.bench.ycsb.YcsbConfig}); the transaction is the stored procedure
 * {@link org.tebaldi.bench.ycsb.YcsbTxn}; the workload ({@link org.tebaldi.bench.ycsb.YcsbWorkload}) is created by
 * {@link org.tebaldi.bench.ycsb.YcsbFactory} ({@code workload: {name: ycsb, ...}}).
 */
package org.tebaldi.bench.ycsb;
