package org.tebaldi.cc.twopl;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.testkit.RoundTrip;

/** 2PL's payloads (wound-wait's wounds) survive the wire, alone and inside a mechanism envelope. */
class TwoPlCodecsTest {
    @Test
    void payloadsRoundTrip() {
        RoundTrip.check(new TwoPlMessages.Wound(1L << 40 | 3, "wound-wait: T0.3 wounded by older T1.2 on t0[1] at "
                + "2pl node 0"));
        RoundTrip.check(new CcEnvelope(2, new TwoPlMessages.Wound(9, "")));
    }
}
