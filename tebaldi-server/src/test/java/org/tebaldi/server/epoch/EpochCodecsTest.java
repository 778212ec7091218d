package org.tebaldi.server.epoch;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.testkit.RoundTrip;
import org.tebaldi.server.msg.CommitRequest;

/** Every message of epoch-based commit survives the wire (process mode), the coordinators' shares with metadata. */
class EpochCodecsTest {
    @Test
    void epochMessagesRoundTrip() {
        long e = EpochService.epochId(3, 17);
        RoundTrip.check(new EpochMessages.Prepare(e, new int[] {0, 2, 5}));
        RoundTrip.check(new EpochMessages.Prepare(e, new int[0]));
        RoundTrip.check(new EpochMessages.Members(e, new CommitRequest[0]));
        RoundTrip.check(new EpochMessages.Members(e, new CommitRequest[] {
            new CommitRequest(1L << 40 | 7, new Object[] {88L, null}, 1L << 33),
            new CommitRequest(2L << 40 | 9, null, 0)}));
        RoundTrip.check(new EpochMessages.Prepared(e, true));
        RoundTrip.check(new EpochMessages.Decision(e, false));
        RoundTrip.check(new EpochMessages.Done(e));
    }
}
