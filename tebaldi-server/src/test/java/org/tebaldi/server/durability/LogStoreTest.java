package org.tebaldi.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/** The RocksDB store (and the in-memory one) keep every record kind and give it back after a reopen. */
class LogStoreTest {
    @TempDir
    Path dir;

    private final Catalog cat = new Catalog();
    private final TableSchema kv = cat.add("kv", 1, 0, false, Catalog.longCol("v"), Catalog.stringCol("s"));
    private final Executor now = Runnable::run;

    private List<LogRecord> records() {
        Key k = Key.of(kv, 7);
        return List.of(
                new LogRecord.Op(42, 0, k, 1 << 20, 2, kv.row(5L, "five")),
                new LogRecord.Op(42, 1, Key.of(kv, 8), 3, 1, null),
                new LogRecord.Precommit(42, 3, 2, 1, 2, List.of(new LogRecord.Read(k, 0, 1))),
                new LogRecord.Commit(42, 4),
                new LogRecord.Precommit(43, 4, 1, 0, 0, null),
                new LogRecord.Abort(43),
                new LogRecord.Persisted(4),
                new LogRecord.History(41, 0, List.of(), List.of(new LogRecord.Written(k, 1, 7))));
    }

    private LogContents read(LogStore s, List<LogRecord.Data> rows) throws Exception {
        CompletableFuture<LogContents> f = new CompletableFuture<>();
        s.read(rows::addAll, f::complete);
        return f.get(30, TimeUnit.SECONDS);
    }

    private void check(LogContents c, List<LogRecord.Data> rows) {
        assertEquals(4, c.persisted);
        LogContents.TxnLog t = c.txns.get(42L);
        assertEquals(2, t.ops.size());
        assertEquals("five", t.ops.get(0).row().getString("s"));
        assertNull(t.ops.get(1).row(), "a delete");
        assertEquals(3, t.precommit.epoch());
        assertEquals(2, t.precommit.participants());
        assertEquals(1, t.precommit.reads().size());
        assertEquals(4, t.commit.globalEpoch());
        assertTrue(c.txns.get(43L).aborted);
        assertEquals(1, c.histories.size());
        assertEquals(1, rows.size());
        assertEquals(11L, rows.get(0).row().getLong("v"));
    }

    @Test
    void rocksDbKeepsEveryRecordAcrossAReopenAndClearsTheLog() throws Exception {
        RocksLogStore s = new RocksLogStore(dir, cat, now);
        assertFalse(s.hadData());
        s.load(List.of(new LogRecord.Data(Key.of(kv, 1), 0, 0, kv.row(11L, "x"))));
        CompletableFuture<Void> synced = new CompletableFuture<>();
        s.write(records(), true, () -> synced.complete(null));
        synced.get(30, TimeUnit.SECONDS);
        s.close();
        RocksLogStore again = new RocksLogStore(dir, cat, now);
        assertTrue(again.hadData());
        List<LogRecord.Data> rows = new ArrayList<>();
        LogContents first = read(again, rows);
        check(first, rows);
        assertEquals(4, first.maxEpoch());
        again.write(List.of(new LogRecord.ClearLog(), new LogRecord.Finished(2, 9)), true, null);
        LogContents c = read(again, new ArrayList<>());
        assertTrue(c.txns.isEmpty());
        assertEquals(2, c.round);
        assertEquals(9, c.epochBase);
        assertTrue(again.sizeBytes() > 0);
        again.close();
    }

    /** Group durability's once-per-epoch sync is a synced write of no records: it completes, after what came before. */
    @Test
    void aSyncedWriteOfNoRecordsCompletesInOrder() throws Exception {
        RocksLogStore s = new RocksLogStore(dir, cat, now);
        List<String> done = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> last = new CompletableFuture<>();
        s.write(records(), false, () -> done.add("records"));
        s.write(List.of(), true, () -> done.add("sync"));
        s.write(List.of(), false, () -> last.complete(null));
        last.get(30, TimeUnit.SECONDS);
        assertEquals(List.of("records", "sync"), done);
        s.close();
        RocksLogStore again = new RocksLogStore(dir, cat, now);
        LogContents c = read(again, new ArrayList<>());
        assertEquals(4, c.persisted);
        assertEquals(2, c.txns.get(42L).ops.size(), "the records before the sync are there after a reopen");
        again.close();
    }

    @Test
    void memoryStoreKeepsSyncedWritesAndAPrefixOfTheRestOnACrash() throws Exception {
        MemoryLogStore m = new MemoryLogStore();
        LogStore s = MemoryLogStore.factory(new MemoryLogStore[] {m}).open(0, cat, now);
        s.load(List.of(new LogRecord.Data(Key.of(kv, 1), 0, 0, kv.row(11L, "x"))));
        s.write(records(), true, null);
        s.write(List.of(new LogRecord.Commit(44, 5)), false, null);
        m.crash(new java.util.Random(1), false);
        LogStore reopened = MemoryLogStore.factory(new MemoryLogStore[] {m}).open(0, cat, now);
        assertTrue(reopened.hadData());
        List<LogRecord.Data> rows = new ArrayList<>();
        check(read(reopened, rows), rows);
    }
}
