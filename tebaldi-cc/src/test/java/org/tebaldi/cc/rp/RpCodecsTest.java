package org.tebaldi.cc.rp;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.testkit.RoundTrip;
import org.tebaldi.core.cc.CcEnvelope;

/** RP's payloads survive the wire, alone, inside a mechanism envelope and in a per-level metadata array. */
class RpCodecsTest {
    @Test
    void payloadsRoundTrip() {
        RoundTrip.check(new RpMessages.Meta(-1, -1));
        RoundTrip.check(new RpMessages.Meta(7, 5));
        RoundTrip.check(new RpMessages.Release(1L << 40 | 3, 4));
        RoundTrip.check(new RpMessages.Watch(9, 1L << 41 | 2, 3, -1));
        RoundTrip.check(new RpMessages.Progress(9, 1L << 41 | 2, Integer.MAX_VALUE, Integer.MAX_VALUE, true));
        RoundTrip.check(new RpMessages.Progress(9, 5, 2, 1, false));
        RoundTrip.check(new RpMessages.Known(1L << 41 | 2, 3, false));
        RoundTrip.check(new RpMessages.Known(7, -1, false));
        RoundTrip.check(new RpMessages.Known(7, Integer.MAX_VALUE, true));
        RoundTrip.check(new CcEnvelope(2, new RpMessages.Watch(1, 2, 3, 4)));
        RoundTrip.check(new Object[] {null, new RpMessages.Meta(3, 2)});
    }
}
