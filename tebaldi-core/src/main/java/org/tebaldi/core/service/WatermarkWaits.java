package org.tebaldi.core.service;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.CcServices;
import org.tebaldi.core.storage.Version;

/**
 * Callbacks waiting for one CC node's watermark at the {@link TimestampService} (the oldest start or timestamp
 * any running or future transaction of that node can have) to pass a threshold — e.g. a GC confirmation
 * (dissertation §4.5.3) that no snapshot older than some commit timestamp is left. One watermark request is
 * outstanding at a time; while callbacks wait, the watermark is polled every {@code pollMicros} µs. Runs on the
 * owning node's thread.
 */
public final class WatermarkWaits {
    private record Wait(long above, Runnable then) {
    }

    private final CcServices node;
    private final TsClient ts;
    private final long pollMicros;
    private final List<Wait> waits = new ArrayList<>();
    private boolean polling;

    /** @param pollMicros pause between two watermark requests while callbacks wait, µs */
    public WatermarkWaits(CcServices node, TsClient ts, long pollMicros) {
        this.node = node;
        this.ts = ts;
        this.pollMicros = pollMicros;
    }

    /** Runs {@code then} on this node once the watermark is strictly above {@code stamp}. */
    public void whenAbove(long stamp, Runnable then) {
        waits.add(new Wait(stamp, then));
        if (!polling) {
            polling = true;
            ask();
        }
    }

    /**
     * A GC confirmation (dissertation §4.5.3): runs {@code then} once the watermark is above the newest stamp CC node
     * {@code nodeId} put on any of {@code written} — at once when it stamped none of them (versions written outside
     * its subtree need nothing).
     */
    public void whenAboveStamps(List<Version> written, int nodeId, Runnable then) {
        long max = Version.NO_STAMP;
        for (Version v : written) {
            max = Math.max(max, v.stamp(nodeId));
        }
        if (max == Version.NO_STAMP) {
            then.run();
        } else {
            whenAbove(max, then);
        }
    }

    private void ask() {
        ts.watermark(false, wm -> {
            List<Wait> ready = new ArrayList<>();
            waits.removeIf(w -> {
                if (wm > w.above()) {
                    ready.add(w);
                    return true;
                }
                return false;
            });
            if (waits.isEmpty()) {
                polling = false;
            } else {
                node.schedule(pollMicros, this::ask);
            }
            ready.forEach(w -> w.then().run());
        });
    }
}
