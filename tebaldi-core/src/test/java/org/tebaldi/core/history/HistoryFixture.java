package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.TxnIds;

/**
 * Builds hand-made histories for tests: one data-server log and one coordinator log by default (more can be
 * added), automatic write sequence numbers, and reads that default to the writer's latest write.
 */
final class HistoryFixture {
    static final long T0 = 0L;

    final HistoryLog ds = new HistoryLog();
    final HistoryLog tc = new HistoryLog();
    private final List<HistoryLog> extra = new ArrayList<>();
    private final Map<String, Integer> seqs = new HashMap<>();

    /** Transaction id {@code T<tc>.<seq>}. */
    static long t(int tc, long seq) {
        return TxnIds.make(tc, seq);
    }

    /** Key {@code t1[part]}. */
    static Key k(long part) {
        return Key.of(1, part);
    }

    HistoryFixture commit(long txn, String type) {
        tc.outcome(txn, true, type);
        return this;
    }

    HistoryFixture abort(long txn, String type) {
        tc.outcome(txn, false, type);
        return this;
    }

    /** Logs the next write of {@code txn} to {@code key}. */
    HistoryFixture write(long txn, Key key) {
        int seq = seqs.merge(txn + "/" + key, 1, Integer::sum);
        ds.write(txn, key, seq);
        return this;
    }

    /** Logs a read of the latest logged write of {@code writer} to {@code key} (write #1 for T0). */
    HistoryFixture read(long reader, Key key, long writer) {
        return read(reader, key, writer, writer == T0 ? 1 : seqs.getOrDefault(writer + "/" + key, 1));
    }

    HistoryFixture read(long reader, Key key, long writer, int writeSeq) {
        ds.read(reader, key, writer, writeSeq);
        return this;
    }

    HistoryFixture order(Key key, long... writers) {
        ds.versionOrder(key, writers);
        return this;
    }

    /** Adds a further (empty) log the test fills itself. */
    HistoryLog log() {
        HistoryLog l = new HistoryLog();
        extra.add(l);
        return l;
    }

    History history() {
        List<HistoryLog> logs = new ArrayList<>(List.of(ds, tc));
        logs.addAll(extra);
        return History.merge(logs);
    }

    CheckResult check() {
        return SerializabilityChecker.check(history());
    }
}
