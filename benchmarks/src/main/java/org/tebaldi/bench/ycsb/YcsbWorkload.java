package org.tebaldi.bench.ycsb;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/**
 * YCSB as a transactional workload (docs/experiments.md; the form used by Sundial and DBx1000, for comparisons with the
 * neighbouring papers): one table {@code usertable(key) → balance, field0 .. field{F-1}} of {@code records} rows,
 * partitioned by key; one transaction type {@link YcsbTxn} of {@code opsPerTxn} reads and read-modify-write updates
 * on distinct Zipf({@code theta})-distributed keys ({@link YcsbClient}). The {@code balance} column (0 at load)
 * makes the run checkable: every transaction's updates add deltas summing to zero.
 *
 * <p>Consistency: the balances sum to 0, every row exists, and every row's fields have {@code fieldLength}
 * characters.
 */
public final class YcsbWorkload implements Workload {
    /** The table. */
    public static final String TABLE = "usertable";
    /** The checkable column. */
    public static final String BALANCE = "balance";

    private final YcsbConfig cfg;
    private final TableSchema table;
    private final Database db;
    private final ZipfianGenerator zipf;
    private final ZipfianGenerator writeZipf;
    /** Zipf over one partition's rows (partitioned runs only), and for updates when their skew differs. */
    private final ZipfianGenerator partZipf;
    private final ZipfianGenerator partWriteZipf;

    /** Builds the table, the transaction type and the key distribution (O(records)). */
    public YcsbWorkload(YcsbConfig cfg) {
        this.cfg = cfg;
        Catalog c = new Catalog();
        Column[] cols = new Column[1 + cfg.fields()];
        cols[0] = Catalog.longCol(BALANCE);
        for (int i = 0; i < cfg.fields(); i++) {
            cols[1 + i] = Catalog.stringCol(field(i));
        }
        table = c.add(TABLE, 1, 0, false, cols);
        db = new Database(c);
        db.procedure(YcsbTxn.procedure(c, cfg.opsPerTxn()));
        zipf = new ZipfianGenerator(cfg.records(), cfg.theta());
        writeZipf = cfg.writeTheta() == cfg.theta() ? zipf : new ZipfianGenerator(cfg.records(), cfg.writeTheta());
        int perPart = cfg.records() / cfg.partitions();
        partZipf = cfg.partitioned() ? new ZipfianGenerator(perPart, cfg.theta()) : null;
        partWriteZipf = !cfg.partitioned() ? null
                : cfg.writeTheta() == cfg.theta() ? partZipf : new ZipfianGenerator(perPart, cfg.writeTheta());
    }

    /** Name of string field {@code i}. */
    public static String field(int i) {
        return "field" + i;
    }

    /** The parameters. */
    public YcsbConfig config() {
        return cfg;
    }

    @Override
    public String name() {
        return "ycsb";
    }

    @Override
    public Database database() {
        return db;
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
        loader.expect(TABLE, cfg.records());
        SplittableRandom r = new SplittableRandom(42);
        String[] pool = new String[64];
        for (int i = 0; i < pool.length; i++) {
            char[] ch = new char[cfg.fieldLength()];
            for (int j = 0; j < ch.length; j++) {
                ch[j] = (char) ('a' + r.nextInt(26));
            }
            pool[i] = new String(ch);
        }
        Object[] v = new Object[1 + cfg.fields()];
        for (long k = 0; k < cfg.records(); k++) {
            v[0] = 0L;
            for (int i = 0; i < cfg.fields(); i++) {
                v[1 + i] = pool[(int) ((k * 31 + i) & 63)];
            }
            loader.load(Key.of(table, k), table.row(v.clone()));
            if ((k + 1) % 100_000 == 0 || k + 1 == cfg.records()) {
                progress.report(TABLE, k + 1, cfg.records());
            }
        }
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        return cfg.partitioned()
                ? new YcsbClient(cfg, partZipf, partWriteZipf, index % cfg.partitions(), seed)
                : new YcsbClient(cfg, zipf, writeZipf, 0, seed);
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot s) {
        List<String> problems = new ArrayList<>();
        long[] sum = {0};
        s.forEach(TABLE, (k, row) -> {
            sum[0] += row.getLong(BALANCE);
            for (int i = 0; i < cfg.fields(); i++) {
                String f = row.getString(field(i));
                if ((f == null || f.length() != cfg.fieldLength()) && problems.size() < 20) {
                    problems.add("row " + k.part(0) + " has " + field(i) + " " + f);
                }
            }
        });
        long rows = s.count(TABLE);
        if (rows != cfg.records()) {
            problems.add(TABLE + " has " + rows + " rows, loaded " + cfg.records());
        }
        if (sum[0] != 0) {
            problems.add("the balances sum to " + sum[0] + ", expected 0 (every transaction's deltas sum to 0)");
        }
        String summary = rows + " rows, balances sum to " + sum[0];
        return problems.isEmpty() ? ConsistencyResult.ok(summary) : ConsistencyResult.violated(summary, problems);
    }
}
