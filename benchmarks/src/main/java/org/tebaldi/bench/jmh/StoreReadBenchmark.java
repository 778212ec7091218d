package org.tebaldi.bench.jmh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.storage.MultiVersionStore;
import org.tebaldi.server.storage.StorageOptions;

/**
 * The read cost of a settled row (docs/performance.md, "Rows off the heap"): {@code rows} TPC-C-stock-shaped rows
 * (3 longs, 10 strings of 24 characters, 3 longs, a string of 26–50) loaded into one data server's store, read at
 * random keys. {@code store}: {@code heap} (every version a Java object: the store before rows moved off the heap), {@code offheap}
 * (the arena, no memory bound) or {@code disk} (no memory for rows: every settled row in the RocksDB disk tier).
 *
 * <ul>
 *   <li>{@code chain} — what an operation on a key not in memory costs: the lookup builds the key's chain (decoding
 *   the version), the read takes the row, and every 1,024 reads the chains go back to the base store as GC epochs
 *   would send them ({@link MultiVersionStore#evict}; unchanged versions are not written again) — amortized in.</li>
 *   <li>{@code row} — a read of a replicated table: the row decoded, no chain ({@link
 *   MultiVersionStore#latestCommittedRow}).</li>
 * </ul>
 *
 * <pre>{@code
 * scripts/tebaldi jmh StoreReadBenchmark -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
@State(Scope.Thread)
public class StoreReadBenchmark {
    /** Where settled rows live. */
    @Param({"heap", "offheap", "disk"})
    public String store;

    /** Rows loaded. */
    @Param({"200000"})
    public int rows;

    private TableSchema stock;
    private MultiVersionStore s;
    private Key[] keys;
    private SplittableRandom rnd;
    private int reads;
    private Path dir;

    /** Loads the rows (and, for {@code disk}, spills every one of them). */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Catalog c = new Catalog();
        Column[] cols = new Column[17];
        cols[0] = Catalog.longCol("s_i_id");
        cols[1] = Catalog.longCol("s_w_id");
        cols[2] = Catalog.longCol("s_quantity");
        for (int d = 0; d < 10; d++) {
            cols[3 + d] = Catalog.stringCol("s_dist_" + d);
        }
        cols[13] = Catalog.longCol("s_ytd");
        cols[14] = Catalog.longCol("s_order_cnt");
        cols[15] = Catalog.longCol("s_remote_cnt");
        cols[16] = Catalog.stringCol("s_data");
        stock = c.add("stock", 2, 0, false, cols);
        dir = Files.createTempDirectory("tebaldi-jmh-store-");
        StorageOptions o = switch (store) {
            case "heap" -> StorageOptions.HEAP;
            case "offheap" -> new StorageOptions(true, StorageOptions.UNLIMITED, null);
            case "disk" -> StorageOptions.bounded(0, dir);
            default -> throw new IllegalArgumentException("store must be heap, offheap or disk, got " + store);
        };
        s = o.open(0, 1, c, rows);
        rnd = new SplittableRandom(33);
        keys = new Key[rows];
        for (int i = 0; i < rows; i++) {
            keys[i] = Key.of(stock, 1 + i % 10, i);
            s.load(keys[i], row(i));
        }
        while (s.evict(Long.MAX_VALUE, 1 << 16, 1 << 16) > 0 || store.equals("disk") && s.stats().diskKeys() < rows) {
            // the base store's upkeep until done (disk: until every row is on disk)
        }
    }

    private Row row(int i) {
        Object[] v = new Object[17];
        v[0] = (long) i;
        v[1] = (long) (1 + i % 10);
        v[2] = (long) (10 + rnd.nextInt(91));
        for (int d = 0; d < 10; d++) {
            v[3 + d] = randomString(24);
        }
        v[13] = 0L;
        v[14] = 0L;
        v[15] = 0L;
        v[16] = randomString(26 + rnd.nextInt(25));
        return Row.of(stock, v);
    }

    private String randomString(int n) {
        char[] ch = new char[n];
        for (int i = 0; i < n; i++) {
            ch[i] = (char) ('a' + rnd.nextInt(26));
        }
        return new String(ch);
    }

    /** Releases the store's memory and files. */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        s.close();
        try (var w = Files.walk(dir)) {
            w.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** A lookup that builds the chain, and the read; the chains' way back amortized (every 1,024 reads). */
    @Benchmark
    public Row chain() {
        Row r = s.find(keys[rnd.nextInt(rows)]).latestCommitted().value();
        if (++reads == 1024) {
            reads = 0;
            s.evict(Long.MAX_VALUE, 4096, 4096);
        }
        return r;
    }

    /** The row only (replicated tables). */
    @Benchmark
    public Row row() {
        return s.latestCommittedRow(keys[rnd.nextInt(rows)]);
    }
}
