package org.tebaldi.bench.ycsb;

/**
 * Parameters of a YCSB run (Cooper et al., SoCC 2010; the transactional form of Sundial / DBx1000). Immutable.
 *
 * @param records     rows of {@code usertable}, at least {@code 2 * opsPerTxn}, at most 100,000,000
 * @param theta       Zipf skew of the keys, {@code 0 <= theta <= 2} (0: uniform)
 * @param readRatio   share of operations that are reads, 0..1 (the rest are read-modify-write updates)
 * @param opsPerTxn   operations per transaction, 1..64, on distinct keys
 * @param fields      string fields per row, 1..20 (YCSB: 10)
 * @param fieldLength characters per field, 1..10,000 (YCSB: 100)
 * @param writeTheta  Zipf skew of the keys of updates, {@code 0 <= writeTheta <= 2}; equal to {@code theta} unless a
 *                    run skews reads and writes differently (Sundial §6.4.2: skewed reads, uniform writes)
 * @param partitions  partitions the keys fall into (key mod partitions; set it to the cluster's data servers, whose
 *                    default partitioner maps key k to server k mod n), 1..1,024, at most records / opsPerTxn
 * @param distributed per cent of multi-partition transactions, 0..100 (COCO §7.1: 20), or -1 (the default): keys
 *                    drawn from the whole table, whatever partition they fall in
 */
public record YcsbConfig(int records, double theta, double readRatio, int opsPerTxn, int fields, int fieldLength,
                         double writeTheta, int partitions, int distributed) {
    /** Reads and writes with the same skew, keys from the whole table (no home partition). */
    public YcsbConfig(int records, double theta, double readRatio, int opsPerTxn, int fields, int fieldLength) {
        this(records, theta, readRatio, opsPerTxn, fields, fieldLength, theta, 1, -1);
    }

    /** Updates skewed by {@code writeTheta}, keys from the whole table. */
    public YcsbConfig(int records, double theta, double readRatio, int opsPerTxn, int fields, int fieldLength,
                      double writeTheta) {
        this(records, theta, readRatio, opsPerTxn, fields, fieldLength, writeTheta, 1, -1);
    }

    /** Reads and writes with the same skew, keys in {@code partitions} partitions ({@code distributed} per cent). */
    public YcsbConfig(int records, double theta, double readRatio, int opsPerTxn, int fields, int fieldLength,
                      int partitions, int distributed) {
        this(records, theta, readRatio, opsPerTxn, fields, fieldLength, theta, partitions, distributed);
    }

    /** @throws IllegalArgumentException for a value outside the ranges of the class doc */
    public YcsbConfig {
        check(opsPerTxn >= 1 && opsPerTxn <= 64, "opsPerTxn must be 1..64, got " + opsPerTxn);
        check(records >= 2 * opsPerTxn && records <= 100_000_000, "records must be " + 2 * opsPerTxn
                + "..100,000,000 (at least twice opsPerTxn), got " + records);
        check(theta >= 0 && theta <= ZipfianGenerator.MAX_THETA, "theta must be in [0, 2], got " + theta);
        check(writeTheta >= 0 && writeTheta <= ZipfianGenerator.MAX_THETA,
                "writeTheta must be in [0, 2], got " + writeTheta);
        check(readRatio >= 0 && readRatio <= 1, "readRatio must be in 0..1, got " + readRatio);
        check(fields >= 1 && fields <= 20, "fields must be 1..20, got " + fields);
        check(fieldLength >= 1 && fieldLength <= 10_000, "fieldLength must be 1..10,000, got " + fieldLength);
        check(partitions >= 1 && partitions <= 1_024 && (long) partitions * 2 * opsPerTxn <= records,
                "partitions must be 1..1,024 with at least 2 * opsPerTxn records each, got " + partitions);
        check(distributed >= -1 && distributed <= 100, "distributed must be 0..100 per cent, got " + distributed);
        check(distributed <= 0 || partitions >= 2, "distributed transactions need partitions >= 2 (set "
                + "workload.partitions to the cluster's dataServers)");
    }

    /** Whether transactions have a home partition ({@code distributed} given). */
    public boolean partitioned() {
        return distributed >= 0;
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
