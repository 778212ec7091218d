package org.tebaldi.cc.ssi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.model.Key;

/**
 * SSI read marks of one data server (the "SIREAD locks" of Cahill et al.): which transactions read which key, so
 * a later writer of that key finds the anti-dependency reader → writer. A committed reader's mark is dropped once
 * every batch still running started after it committed (the timestamp service's watermark passed its commit
 * timestamp): such a reader can no longer be part of a dangerous structure (docs/mechanisms.md, SSI).
 */
final class ReadMarks {
    /** One read: the reader and its per-node SSI state. */
    record Mark(DsTxn reader, SsiDsPart.Snapshot state) {
    }

    private final HashMap<Key, List<Mark>> marks = new HashMap<>();

    void add(Key key, DsTxn reader, SsiDsPart.Snapshot state) {
        List<Mark> l = marks.computeIfAbsent(key, k -> new ArrayList<>(2));
        for (Mark m : l) {
            if (m.reader() == reader) {
                return;
            }
        }
        l.add(new Mark(reader, state));
    }

    List<Mark> on(Key key) {
        List<Mark> l = marks.get(key);
        return l == null ? List.of() : l;
    }

    /**
     * Drops marks of aborted readers and of committed readers whose commit timestamp is below {@code watermark}.
     *
     * @return the marks looked at (the work done, for the simulated cluster's cost model)
     */
    int prune(long watermark) {
        int seen = 0;
        for (Iterator<Map.Entry<Key, List<Mark>>> it = marks.entrySet().iterator(); it.hasNext(); ) {
            List<Mark> l = it.next().getValue();
            seen += l.size();
            l.removeIf(m -> m.reader().finished() && (!m.reader().committed() || m.state().cts < watermark));
            if (l.isEmpty()) {
                it.remove();
            }
        }
        return seen;
    }

    /** Keys with marks (for tests and memory checks). */
    int keys() {
        return marks.size();
    }
}
