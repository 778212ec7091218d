package org.tebaldi.cc.tso;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.model.Key;

/**
 * TSO's read marks at one data server (dissertation §4.4.4): who read a key, at which timestamp, and the stamp of the
 * version it read — so a later write below a reader's timestamp is refused. A finished reader's mark is forgotten
 * once it aborted, or once its timestamp is below the {@link TsoClock#bound} (the service's watermark under GTS, the
 * server's floor under DST), checked every {@code tickMicros} while marks remain.
 */
final class ReadMarks {
    /** A read of a key by {@code reader} with timestamp {@code readerTs}, of a version stamped {@code readStamp}. */
    record Mark(DsTxn reader, long readerTs, long readStamp) {
    }

    private final HashMap<Key, List<Mark>> marks = new HashMap<>();
    private final DsServices services;
    private final TsoClock clock;
    private final long tickMicros;
    private boolean scheduled;

    ReadMarks(DsServices services, TsoClock clock, long tickMicros) {
        this.services = services;
        this.clock = clock;
        this.tickMicros = tickMicros;
    }

    /** The marks on {@code key} (empty if none). */
    List<Mark> on(Key key) {
        return marks.getOrDefault(key, List.of());
    }

    /** Adds a mark and makes sure a cleanup is scheduled. */
    void add(Key key, Mark m) {
        marks.computeIfAbsent(key, x -> new ArrayList<>(2)).add(m);
        schedule();
    }

    private void schedule() {
        if (!scheduled) {
            scheduled = true;
            services.schedule(tickMicros, () -> clock.bound(wm -> {
                for (Iterator<Map.Entry<Key, List<Mark>>> it = marks.entrySet().iterator(); it.hasNext(); ) {
                    List<Mark> l = it.next().getValue();
                    l.removeIf(m -> m.reader().finished() && (!m.reader().committed() || m.readerTs() < wm));
                    if (l.isEmpty()) {
                        it.remove();
                    }
                }
                scheduled = false;
                if (!marks.isEmpty()) {
                    schedule();
                }
            }));
        }
    }
}
