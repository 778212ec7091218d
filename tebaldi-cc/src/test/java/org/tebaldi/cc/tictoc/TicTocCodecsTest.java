package org.tebaldi.cc.tictoc;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.testkit.RoundTrip;

/** TicToc's payloads survive the wire, alone and inside a per-level metadata array. */
class TicTocCodecsTest {
    @Test
    void payloadsRoundTrip() {
        RoundTrip.check(new TicTocMessages.CommitTs(12));
        RoundTrip.check(new TicTocMessages.Bound(3));
        RoundTrip.check(new Object[] {null, new TicTocMessages.CommitTs(1)});
    }
}
