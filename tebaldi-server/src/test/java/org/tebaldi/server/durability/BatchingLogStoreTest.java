package org.tebaldi.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link BatchingLogStore}: unsynced callback-free writes are gathered and handed over as one write — by the timer,
 * by the record limit, or before any other request — and the wrapped store sees every record in issue order.
 */
class BatchingLogStoreTest {
    /** The wrapped store: what it was handed, one entry per write ("sync"/"cb" marks, then the records). */
    private static final class Inner implements LogStore {
        final List<String> writes = new ArrayList<>();
        final List<LogRecord> records = new ArrayList<>();
        boolean closed;

        @Override
        public boolean hadData() {
            return false;
        }

        @Override
        public void write(List<LogRecord> recs, boolean sync, Runnable done) {
            writes.add((sync ? "sync " : "") + (done != null ? "cb " : "") + recs.size());
            records.addAll(recs);
            if (done != null) {
                done.run();
            }
        }

        @Override
        public void load(List<LogRecord.Data> rows) {
            writes.add("load " + rows.size());
        }

        @Override
        public void read(Consumer<List<LogRecord.Data>> dataChunk, Consumer<LogContents> done) {
            writes.add("read");
        }

        @Override
        public void awaitWritten() {
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final Inner inner = new Inner();
    private final List<Runnable> timers = new ArrayList<>();
    private final List<Long> delays = new ArrayList<>();

    private BatchingLogStore store(int maxRecords) {
        return new BatchingLogStore(inner, 1_000, maxRecords, (d, task) -> {
            delays.add(d);
            timers.add(task);
        });
    }

    private static List<LogRecord> commits(long... txns) {
        List<LogRecord> l = new ArrayList<>();
        for (long t : txns) {
            l.add(new LogRecord.Commit(t, 1));
        }
        return l;
    }

    private void fireTimers() {
        List<Runnable> due = new ArrayList<>(timers);
        timers.clear();
        due.forEach(Runnable::run);
    }

    @Test
    void unsyncedWritesReachTheStoreAsOneWriteWhenTheTimerFires() {
        BatchingLogStore s = store(512);
        s.write(commits(1), false, null);
        s.write(commits(2, 3), false, null);
        s.write(List.of(new LogRecord.Abort(4)), false, null);
        assertEquals(List.of(), inner.writes, "nothing handed over before the timer");
        assertEquals(List.of(1_000L), delays, "one timer for the whole gathering window");
        org.tebaldi.core.runtime.cost.HandlerUnits.takeKind();
        fireTimers();
        assertEquals("log-flush", org.tebaldi.core.runtime.cost.HandlerUnits.takeKind(),
                "the flush timer is charged as its own timer kind in the simulated cluster");
        assertEquals(List.of("4"), inner.writes);
        assertEquals(List.of(new LogRecord.Commit(1, 1), new LogRecord.Commit(2, 1), new LogRecord.Commit(3, 1),
                new LogRecord.Abort(4)), inner.records);
        assertEquals(1, s.flushes());
        s.write(commits(5), false, null);
        assertEquals(2, delays.size(), "a new window after the flush");
    }

    @Test
    void aSyncedWriteOrAWriteWithACallbackHandsTheGatheredRecordsOverFirst() {
        BatchingLogStore s = store(512);
        s.write(commits(1, 2), false, null);
        List<String> done = new ArrayList<>();
        s.write(List.of(new LogRecord.Persisted(7)), true, () -> done.add("persisted"));
        assertEquals(List.of("2", "sync cb 1"), inner.writes);
        assertEquals(new LogRecord.Persisted(7), inner.records.get(2), "the synced record after the gathered ones");
        assertEquals(List.of("persisted"), done);
        s.write(commits(3), false, null);
        s.write(commits(4), false, () -> done.add("four"));
        assertEquals(List.of("2", "sync cb 1", "1", "cb 1"), inner.writes);
        fireTimers();
        assertEquals(4, inner.writes.size(), "the timer of an emptied window hands nothing over");
    }

    @Test
    void theRecordLimitFlushesAtOnce() {
        BatchingLogStore s = store(3);
        s.write(commits(1, 2), false, null);
        s.write(commits(3), false, null);
        assertEquals(List.of("3"), inner.writes);
    }

    @Test
    void loadsReadsAndCloseHandTheGatheredRecordsOverFirst() {
        BatchingLogStore s = store(512);
        s.write(commits(1), false, null);
        s.load(List.of());
        s.write(commits(2), false, null);
        s.read(c -> { }, c -> { });
        s.write(commits(3), false, null);
        s.close();
        assertEquals(List.of("1", "load 0", "1", "read", "1"), inner.writes);
        assertTrue(inner.closed);
    }

    @Test
    void aWindowOrLimitBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BatchingLogStore(inner, 0, 1, (d, t) -> { }));
        assertThrows(IllegalArgumentException.class, () -> new BatchingLogStore(inner, 1, 0, (d, t) -> { }));
    }
}
