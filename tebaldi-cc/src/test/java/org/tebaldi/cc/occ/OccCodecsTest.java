package org.tebaldi.cc.occ;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.testkit.RoundTrip;

/** OCC's payloads survive the wire, alone and inside a mechanism envelope or a per-level metadata array. */
class OccCodecsTest {
    @Test
    void payloadsRoundTrip() {
        RoundTrip.check(new OccMessages.Lock(1L << 40 | 3));
        RoundTrip.check(new OccMessages.Locked(1L << 40 | 3, null));
        RoundTrip.check(new OccMessages.Locked(5, "occ: write set: t0[3] is locked by T1.2 at occ node 4"));
        RoundTrip.check(new OccMessages.MaxTid(Tid.first(1_000_000) + 7));
        RoundTrip.check(new OccMessages.CommitTid(Tid.first(12) + 1));
        RoundTrip.check(new CcEnvelope(2, new OccMessages.Lock(9)));
        RoundTrip.check(new Object[] {null, new OccMessages.CommitTid(3)});
    }
}
