package org.tebaldi.cc.ssi;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.testkit.RoundTrip;
import org.tebaldi.core.cc.CcEnvelope;

/** SSI's payloads survive the wire, alone and inside a mechanism envelope or a per-level metadata array. */
class SsiCodecsTest {
    @Test
    void payloadsRoundTrip() {
        RoundTrip.check(new SsiMeta(42));
        RoundTrip.check(new PivotMessages.Check(1, 17, 23, new long[] {17, 19, 21, 17}));
        RoundTrip.check(new PivotMessages.Check(2, 17, 23, new long[0]));
        RoundTrip.check(new PivotMessages.Verdict(3, true, "ssi: batch 5 is a pivot"));
        RoundTrip.check(new PivotMessages.Verdict(4, false, null));
        RoundTrip.check(new CcEnvelope(1, new PivotMessages.Check(5, 1, 2, new long[] {3, 4})));
        RoundTrip.check(new Object[] {null, new SsiMeta(7), 99L});
        RoundTrip.check(new CommitTs(123));
        RoundTrip.check(new AntiDependency(17, 19));
    }
}
