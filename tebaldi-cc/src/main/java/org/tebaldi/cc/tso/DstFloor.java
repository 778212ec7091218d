package org.tebaldi.cc.tso;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.ts.HybridClock;
import org.tebaldi.core.storage.Version;

/**
 * What replaces the timestamp service's watermark for a TSO leaf with {@code timestamps: dst}, at one data server:
 * a <em>floor</em> — a timestamp below which this server serves no transaction any more. A read mark of a finished
 * reader below the floor can be forgotten (a writer it would refuse lies below the floor too and is refused by
 * it), and a GC epoch whose newest stamp lies below the floor can be confirmed (every transaction still to read
 * here is above it, so the versions the epoch's newest ones hide are seen by nobody). The floor rises, on a timer,
 * to the server's clock minus {@link #SLACK_MICROS}, but never above the timestamp of a transaction still live here;
 * a transaction that reaches the server below it is refused (its coordinator's clock lags this server's by more than
 * the slack, or it took that long to get here) and its coordinator learns the floor
 * ({@link TsoMessages.Seen}). With GTS the service's watermark plays this part: the oldest timestamp of a
 * registered unfinished transaction, known only to the service.
 */
final class DstFloor {
    /** How far the floor stays behind the server's clock, µs (as DST's snapshot GC slack). */
    static final long SLACK_MICROS = 200_000;

    private final DsServices services;
    private final int ccNode;
    /** Transactions with a timestamp that reached this server and have not finished here. */
    private final Set<TsoDsPart.Stamp> live = new HashSet<>();
    /** GC epochs waiting for the floor to pass their newest stamp, oldest first. */
    private final ArrayDeque<Epoch> gcQueue = new ArrayDeque<>();
    private long floor;
    private boolean started;
    /** The highest timestamp this part reported to {@link DsServices#served}. */
    private long servedMax = -1;

    private record Epoch(long maxStamp, Runnable confirmed) {
    }

    DstFloor(DsServices services, int ccNode) {
        this.services = services;
        this.ccNode = ccNode;
    }

    /**
     * The floor now: transactions with a smaller timestamp are refused here. It starts, when first asked (parts
     * are made before their node runs), at the server's clock, or just above the highest timestamp a predecessor
     * of this part served here ({@link DsServices#highestServed}) if that is higher: a part rebuilt by a partial
     * restart lost the read marks of its predecessor, and refusing every transaction at or below any timestamp it
     * served (the coordinators learn the floor and move past it) stands in for those marks — including readers whose
     * coordinators' clocks ran ahead of this server's. Not further ahead: a floor ahead of every coordinator's clock
     * would push the coordinators' clocks ahead of real time and a later transaction elsewhere could then be ordered
     * before them (found by the list-append final reads with a floor 200 ms ahead); the highest served timestamp is
     * one a coordinator's clock reached.
     */
    long value() {
        if (!started) {
            started = true;
            floor = Math.max(HybridClock.ofMicros(services.nowMicros()), services.highestServed(ccNode) + 1);
        }
        return floor;
    }

    /** A transaction with a timestamp sent a request here. */
    void live(TsoDsPart.Stamp st) {
        if (st.ts >= 0) {
            live.add(st);
            if (st.ts > servedMax) { // the data server's record only moves up: tell it only then
                servedMax = st.ts;
                services.served(ccNode, st.ts);
            }
        }
    }

    /** A transaction ended here. */
    void ended(TsoDsPart.Stamp st) {
        live.remove(st);
    }

    /** Raises the floor to the server's clock minus the slack, held back by the oldest live transaction. */
    long advance() {
        value();
        long target = HybridClock.ofMicros(services.nowMicros() - SLACK_MICROS);
        for (TsoDsPart.Stamp s : live) {
            target = Math.min(target, s.ts);
        }
        floor = Math.max(floor, target);
        return floor;
    }

    /**
     * Queues a GC epoch (the versions it wrote, stamped at CC node {@code ccNode}); confirmed once the floor is
     * above its newest stamp, checked every {@code tickMicros} µs while epochs wait.
     */
    void confirmGc(List<Version> written, int ccNode, long tickMicros, Runnable confirmed) {
        long max = 0;
        for (Version v : written) {
            max = Math.max(max, v.stamp(ccNode));
        }
        gcQueue.add(new Epoch(max, confirmed));
        if (gcQueue.size() == 1) {
            services.schedule(tickMicros, () -> gcTick(tickMicros));
        }
    }

    private void gcTick(long tickMicros) {
        advance();
        while (!gcQueue.isEmpty() && gcQueue.peekFirst().maxStamp() < floor) {
            gcQueue.pollFirst().confirmed().run();
        }
        if (!gcQueue.isEmpty()) {
            services.schedule(tickMicros, () -> gcTick(tickMicros));
        }
    }
}
