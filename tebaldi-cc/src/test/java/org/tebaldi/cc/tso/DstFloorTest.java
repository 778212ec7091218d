package org.tebaldi.cc.tso;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tebaldi.cc.testkit.FakeDs;
import org.tebaldi.core.cc.ts.HybridClock;

/**
 * A TSO part's floor under {@code timestamps: dst} (docs/mechanisms.md, "TSO", "Timestamps"): a fresh part starts
 * at its server's clock; a part rebuilt at the same server (partial restart) starts above every timestamp its
 * predecessor served there — also one from a coordinator whose clock ran ahead of the server's — since the read marks
 * it stands in for are gone; the floor never passes a live transaction.
 */
class DstFloorTest {
    private static TsoDsPart.Stamp stamp(long ts) {
        TsoDsPart.Stamp s = new TsoDsPart.Stamp();
        s.ts = ts;
        return s;
    }

    @Test
    void aRebuiltPartStartsAboveEveryTimestampItsPredecessorServed() {
        FakeDs ds = new FakeDs();
        ds.advance(5_000_000);
        DstFloor first = new DstFloor(ds, 7);
        assertEquals(HybridClock.ofMicros(5_000_000), first.value(), "a fresh part starts at the server's clock");
        long ahead = HybridClock.ofMicros(5_900_000); // a reader whose coordinator's clock runs 900 ms ahead
        TsoDsPart.Stamp reader = stamp(ahead);
        first.live(reader);
        first.ended(reader);
        first.live(stamp(HybridClock.ofMicros(4_990_000)));

        DstFloor rebuilt = new DstFloor(ds, 7); // the part is rebuilt: the reader's mark is gone
        assertTrue(rebuilt.value() > ahead, "a writer below the lost reader's timestamp must be refused");
        DstFloor otherNode = new DstFloor(ds, 8);
        assertEquals(HybridClock.ofMicros(5_000_000), otherNode.value(), "another CC node's parts are unaffected");
    }

    @Test
    void theFloorRisesBehindTheClockButNotPastALiveTransaction() {
        FakeDs ds = new FakeDs();
        ds.advance(1_000_000);
        DstFloor f = new DstFloor(ds, 1);
        assertEquals(HybridClock.ofMicros(1_000_000), f.value());
        TsoDsPart.Stamp live = stamp(HybridClock.ofMicros(1_100_000));
        f.live(live);
        ds.advance(2_000_000);
        assertEquals(HybridClock.ofMicros(1_100_000), f.advance(), "held back by the live transaction");
        f.ended(live);
        assertEquals(HybridClock.ofMicros(3_000_000 - DstFloor.SLACK_MICROS), f.advance(), "then the clock less slack");
    }
}
