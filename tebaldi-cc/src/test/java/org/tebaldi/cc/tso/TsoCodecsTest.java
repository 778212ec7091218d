package org.tebaldi.cc.tso;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.testkit.RoundTrip;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.model.Key;

/** TSO's payloads survive the wire, alone and inside a mechanism envelope or a per-level metadata array. */
class TsoCodecsTest {
    @Test
    void payloadsRoundTrip() {
        RoundTrip.check(new TsoMessages.Meta(12));
        RoundTrip.check(new TsoMessages.Promise(1L << 40 | 3, 12, new Key[] {Key.of(1, 2, 3), Key.of(4, -5)}));
        RoundTrip.check(new TsoMessages.Promise(9, 12, new Key[0]));
        RoundTrip.check(new TsoMessages.PromiseDone(9));
        RoundTrip.check(new CcEnvelope(3, new TsoMessages.Promise(1, 2, new Key[] {Key.of(0, 1)})));
        RoundTrip.check(new Object[] {new TsoMessages.Meta(1), null, new TsoMessages.Meta(2)});
    }
}
