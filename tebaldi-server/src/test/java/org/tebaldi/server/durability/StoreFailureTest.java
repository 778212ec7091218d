package org.tebaldi.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/**
 * A RocksDB store whose writer fails (here: a record it cannot encode; in a run, e.g., a full disk) tells its data
 * server once, on the data server's thread, why it stopped; it drops later requests instead of queueing them unread,
 * and {@code awaitWritten} throws instead of waiting forever (docs/cluster.md, "When the store fails").
 */
class StoreFailureTest {
    @TempDir
    Path dir;

    private final Catalog cat = new Catalog();
    private final TableSchema kv = cat.add("kv", 1, 0, false, Catalog.longCol("v"));

    @Test
    void aFailedWriterStopsItsDataServerWithOneMessage() throws Exception {
        List<RuntimeException> thrown = new CopyOnWriteArrayList<>();
        Executor owner = r -> {
            try {
                r.run();
            } catch (RuntimeException x) {
                thrown.add(x);
            }
        };
        RocksLogStore s = new RocksLogStore(dir, cat, owner);
        assertNull(s.failure());
        // an operation log without a key: the writer cannot encode it
        s.write(List.of(new LogRecord.Op(1, 0, null, 0, 0, null)), false, null);
        IllegalStateException e = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> assertThrows(IllegalStateException.class, s::awaitWritten));
        assertNotNull(s.failure());
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("cannot log any more"),
                e.getMessage());
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            while (thrown.isEmpty()) {
                Thread.sleep(10);
            }
        });
        assertEquals(1, thrown.size(), "one failure reaches the data server");
        assertTrue(thrown.get(0) instanceof StoreFailedException, thrown.get(0).toString());
        assertEquals(s.failure(), thrown.get(0).getMessage());

        AtomicBoolean ran = new AtomicBoolean();
        s.write(List.of(new LogRecord.Data(Key.of(kv, 1), 0, 0, kv.row(1L))), true, () -> ran.set(true));
        assertThrows(IllegalStateException.class, s::awaitWritten, "a later barrier is refused at once");
        assertTrue(!ran.get(), "nothing written after the failure is reported written");
        assertEquals(1, thrown.size());
        s.close();
    }
}
