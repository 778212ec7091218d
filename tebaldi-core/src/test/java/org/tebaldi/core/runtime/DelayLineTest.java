package org.tebaldi.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DelayLineTest {
    /** Records each delivery and how many rounds (deliverAll calls) brought them. */
    private static final class Sink implements Inbox {
        final List<Object> msgs = new ArrayList<>();
        final List<NodeId> tos = new ArrayList<>();
        int rounds;

        @Override
        public void deliver(NodeId from, NodeId to, Object msg) {
            msgs.add(msg);
            tos.add(to);
        }

        @Override
        public void deliverAll(NodeId[] froms, NodeId[] to, Object[] m, int n) {
            rounds++;
            Inbox.super.deliverAll(froms, to, m, n);
        }
    }

    @Test
    void nothingIsDeliveredBeforeItsDeadlineThenEverythingDueInOneRoundInOrder() throws Exception {
        long delay = 200_000_000; // 200 ms: far more than posting takes
        Sink sink = new Sink();
        DelayLine line = new DelayLine(delay, sink);
        assertEquals(Long.MAX_VALUE, line.untilDue());
        long t0 = System.nanoTime();
        assertTrue(line.post(NodeId.tc(0), NodeId.ds(0), 0), "the first message starts an empty line");
        for (int i = 1; i < 5_000; i++) {
            assertFalse(line.post(NodeId.tc(0), NodeId.ds(i % 3), i));
        }
        long posted = System.nanoTime() - t0;
        if (posted < delay) {
            assertEquals(0, line.runDue(), "nothing due yet");
            assertTrue(line.untilDue() > 0);
        }
        Thread.sleep((t0 + delay + posted - System.nanoTime()) / 1_000_000 + 1);
        assertEquals(5_000, line.runDue());
        assertTrue(System.nanoTime() - t0 >= delay);
        assertEquals(1, sink.rounds, "everything due arrives in one round");
        for (int i = 0; i < 5_000; i++) {
            assertEquals(i, sink.msgs.get(i), "FIFO");
            assertEquals(NodeId.ds(i % 3), sink.tos.get(i));
        }
        assertEquals(Long.MAX_VALUE, line.untilDue());
        assertEquals(5_000, line.delivered());
        assertTrue(line.post(NodeId.tc(0), NodeId.ds(0), "again"), "an emptied line starts again");
    }

    @Test
    void theRingGrowsAndKeepsOrderAcrossTheWrap() throws Exception {
        Sink sink = new Sink();
        DelayLine line = new DelayLine(1, sink);
        int next = 0;
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 700 * (round % 4 + 1); i++) {
                line.post(NodeId.tc(1), NodeId.ds(0), next++);
            }
            while (line.untilDue() > 0) {
                Thread.onSpinWait();
            }
            line.runDue();
        }
        assertEquals(next, sink.msgs.size());
        for (int i = 0; i < next; i++) {
            assertEquals(i, sink.msgs.get(i));
        }
    }

    @Test
    void aDelayMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new DelayLine(0, new Sink()));
    }
}
