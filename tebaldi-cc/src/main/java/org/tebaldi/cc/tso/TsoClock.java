package org.tebaldi.cc.tso;

import java.util.List;
import java.util.function.LongConsumer;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.service.TsClient;
import org.tebaldi.core.service.WatermarkWaits;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcNode;

/**
 * A TSO data-server part's view of time under its node's timestamp scheme: the bound below which finished readers'
 * marks may be forgotten and GC epochs confirmed, and the timestamps it refuses outright. Under {@code gts} that is
 * the timestamp service's watermark (asked over the network; timestamps of a failed service's term are refused);
 * under {@code dst} it is the server's own {@link DstFloor} (no message).
 */
final class TsoClock {
    private final DsServices services;
    private final int ccNode;
    private final TsClient ts;
    private final WatermarkWaits gcWaits;
    private final DstFloor floor;
    private final long tickMicros;

    /** @param tickMicros how often marks are cleaned and GC epochs checked, µs */
    TsoClock(CcNode node, DsServices services, long tickMicros) {
        this.services = services;
        this.ccNode = node.id();
        this.tickMicros = tickMicros;
        if (TimestampOrdering.dst(node)) {
            this.ts = null;
            this.gcWaits = null;
            this.floor = new DstFloor(services, node.id());
        } else {
            this.ts = new TsClient(services, node.id());
            this.gcWaits = new WatermarkWaits(services, ts, tickMicros);
            this.floor = null;
        }
    }

    /** Whether this part runs on DST timestamps. */
    boolean dst() {
        return floor != null;
    }

    /** Why a transaction with timestamp {@code stamp} cannot be served here any more, or null. */
    String refusal(long stamp) {
        if (stamp < 0) {
            return null;
        }
        if (floor != null) {
            return stamp < floor.value() ? "tso/dst: timestamp " + stamp + " is below this data server's floor "
                    + floor.value() + " (its coordinator's clock lags by more than " + DstFloor.SLACK_MICROS / 1000
                    + " ms; the retry starts above it)" : null;
        }
        return stamp < ts.termFloor() ? "tso: timestamp " + stamp + " is from a failed timestamp service's term "
                + "(versions it needs may be pruned)" : null;
    }

    /** The floor (DST) a refused transaction's coordinator should move past; -1 under GTS. */
    long floor() {
        return floor == null ? -1 : floor.value();
    }

    /** A transaction's timestamp reached this server (DST: it holds the floor back until it ends here). */
    void live(TsoDsPart.Stamp st) {
        if (floor != null) {
            floor.live(st);
        }
    }

    /** A transaction ended here. */
    void ended(TsoDsPart.Stamp st) {
        if (floor != null) {
            floor.ended(st);
        }
    }

    /**
     * Calls {@code withBound} with a timestamp below which no transaction runs or will run here: the service's
     * watermark (GTS, after a round trip) or the raised floor (DST, at once).
     */
    void bound(LongConsumer withBound) {
        if (floor != null) {
            withBound.accept(floor.advance());
        } else {
            ts.watermark(false, withBound);
        }
    }

    /** Confirms a GC epoch once the bound is above the newest stamp among {@code written} (§4.5.3). */
    void confirmGc(List<Version> written, Runnable confirmed) {
        if (floor != null) {
            floor.confirmGc(written, ccNode, tickMicros, confirmed);
        } else {
            gcWaits.whenAboveStamps(written, ccNode, confirmed);
        }
    }

    /** Handles a timestamp-service reply (GTS); false otherwise. */
    boolean handle(Object payload) {
        return ts != null && ts.handle(payload);
    }

    /** Sends a DST coordinator the timestamp {@code seen} it should move past (a refusal's cause); GTS: nothing. */
    void tell(long txnId, long seen) {
        if (floor != null && seen > 0) {
            services.send(org.tebaldi.core.runtime.NodeId.tc(org.tebaldi.core.txn.TxnIds.coordinator(txnId)), ccNode,
                    new TsoMessages.Seen(seen));
        }
    }
}
