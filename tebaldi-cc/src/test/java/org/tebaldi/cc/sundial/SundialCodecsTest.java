package org.tebaldi.cc.sundial;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.testkit.RoundTrip;

/** Sundial's payloads survive the wire, alone and inside a mechanism envelope or a per-level metadata array. */
class SundialCodecsTest {
    @Test
    void payloadsRoundTrip() {
        RoundTrip.check(new SundialMessages.CommitTs(12));
        RoundTrip.check(new SundialMessages.Bound(0));
        RoundTrip.check(new SundialMessages.Prepare(7, new SundialMessages.Renewal[0]));
        RoundTrip.check(new SundialMessages.Prepare(7, new SundialMessages.Renewal[] {
            new SundialMessages.Renewal(1, Key.of(2, 3), 1L << 41 | 5, 2), new SundialMessages.Renewal(0, Key.of(2), 0, 1)}));
        RoundTrip.check(new SundialMessages.ReadLease(Key.of(1, 2, 3), null, 1L << 40 | 7, 2, 5, 9, -1, -1));
        RoundTrip.check(new SundialMessages.Wrote(Key.of(1, 2), null, 1, -1, 0, 4));
        RoundTrip.check(new SundialMessages.Renew(9, Key.of(4, -5), 0, 1, 17));
        RoundTrip.check(new SundialMessages.Renewed(9, Key.of(4, -5), 3, 1, false, "sundial: lease renewal failed",
                -1, 2, 40));
        RoundTrip.check(new SundialMessages.Renewed(9, Key.of(4), 3, 1, true, null, 20, 0, 0));
        RoundTrip.check(new CcEnvelope(3, new SundialMessages.Renew(1, Key.of(0, 1), 2, 1, 3)));
        RoundTrip.check(new SundialMessages.Fence(4, new SundialMessages.Settled[0], true));
        RoundTrip.check(new SundialMessages.Fence(5, new SundialMessages.Settled[] {
            new SundialMessages.Settled(Key.of(2, 3), 1L << 41 | 5, 2, 17),
            new SundialMessages.Settled(Key.of(2), 9, 1, 0)}, false));
        RoundTrip.check(new SundialMessages.Fenced(5));
        RoundTrip.check(new Object[] {new SundialMessages.CommitTs(1), null});
        org.tebaldi.core.model.Catalog cat = new org.tebaldi.core.model.Catalog();
        org.tebaldi.core.model.TableSchema t = cat.add("t", 1, -1, false,
                org.tebaldi.core.model.Catalog.longCol("v"));
        RoundTrip.check(new SundialMessages.ReadLease(Key.of(t, 1), t.row(3L), 4, 1, 5, 9, 2, 11), cat);
        RoundTrip.check(new SundialMessages.Wrote(Key.of(t, 1), t.row(8L), 2, 4, 1, 10), cat);
    }
}
