package org.tebaldi.bench.ycsb;

/**
 * Parameters of a YCSB run (Cooper et al., SoCC 2010; the transactional form of Sundial / DBx1000). Immutable.
 *
 * @param records     rows of {@code usertable}, at least {@code 2 * opsPerTxn}, at most 100,000,000
 * @param theta       Zipf skew of the keys, {@code 0 <= theta < 1} (0: uniform)
 * @param readRatio   share of operations that are reads, 0..1 (the rest are read-modify-write updates)
 * @param opsPerTxn   operations per transaction, 1..64, on distinct keys
 * @param fields      string fields per row, 1..20 (YCSB: 10)
 * @param fieldLength characters per field, 1..10,000 (YCSB: 100)
 * @param writeTheta  Zipf skew of the keys of updates, {@code 0 <= writeTheta < 1}; equal to {@code theta} unless a
 *                    run skews reads and writes differently (Sundial §6.4.2: skewed reads, uniform writes)
 */
public record YcsbConfig(int records, double theta, double readRatio, int opsPerTxn, int fields, int fieldLength,
                         double writeTheta) {
    /** Reads and writes with the same skew. */
    public YcsbConfig(int records, double theta, double readRatio, int opsPerTxn, int fields, int fieldLength) {
        this(records, theta, readRatio, opsPerTxn, fields, fieldLength, theta);
    }

    /** @throws IllegalArgumentException for a value outside the ranges of the class doc */
    public YcsbConfig {
        check(opsPerTxn >= 1 && opsPerTxn <= 64, "opsPerTxn must be 1..64, got " + opsPerTxn);
        check(records >= 2 * opsPerTxn && records <= 100_000_000, "records must be " + 2 * opsPerTxn
                + "..100,000,000 (at least twice opsPerTxn), got " + records);
        check(theta >= 0 && theta < 1, "theta must be in [0, 1), got " + theta);
        check(writeTheta >= 0 && writeTheta < 1, "writeTheta must be in [0, 1), got " + writeTheta);
        check(readRatio >= 0 && readRatio <= 1, "readRatio must be in 0..1, got " + readRatio);
        check(fields >= 1 && fields <= 20, "fields must be 1..20, got " + fields);
        check(fieldLength >= 1 && fieldLength <= 10_000, "fieldLength must be 1..10,000, got " + fieldLength);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
