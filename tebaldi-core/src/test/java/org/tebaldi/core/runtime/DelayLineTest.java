package org.tebaldi.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DelayLineTest {
    /** Records each delivery with its arrival time. */
    private static final class Sink implements Inbox {
        final List<Object> msgs = new ArrayList<>();
        final List<Long> arrivals = new ArrayList<>();
        final CountDownLatch done;

        Sink(int expect) {
            done = new CountDownLatch(expect);
        }

        @Override
        public synchronized void deliver(NodeId from, NodeId to, Object msg) {
            msgs.add(msg);
            arrivals.add(System.nanoTime());
            done.countDown();
        }
    }

    @Test
    void messagesArriveInOrderNeverEarlyAndInFewRounds() throws Exception {
        int n = 5_000;
        long delay = 2_000_000; // 2 ms
        Sink sink = new Sink(n);
        long[] posted = new long[n];
        try (DelayLine line = new DelayLine(sink, delay, "test-network")) {
            for (int i = 0; i < n; i++) {
                posted[i] = System.nanoTime();
                line.post(NodeId.tc(0), NodeId.ds(i % 3), i);
            }
            assertTrue(sink.done.await(10, TimeUnit.SECONDS));
            synchronized (sink) {
                for (int i = 0; i < n; i++) {
                    assertEquals(i, sink.msgs.get(i), "FIFO");
                    assertTrue(sink.arrivals.get(i) - posted[i] >= delay, "message " + i + " arrived early");
                }
            }
            assertEquals(n, line.delivered());
            assertTrue(line.rounds() < n / 2, n + " messages posted at once took " + line.rounds() + " rounds");
        }
    }

    @Test
    void theRingGrowsAndKeepsOrderAcrossTheWrap() throws Exception {
        Sink sink = new Sink(3_000);
        try (DelayLine line = new DelayLine(sink, 1_000, "test-network")) {
            for (int i = 0; i < 3_000; i++) {
                line.post(NodeId.tc(1), NodeId.ds(0), i);
                if (i % 700 == 0) {
                    Thread.sleep(1);
                }
            }
            assertTrue(sink.done.await(10, TimeUnit.SECONDS));
            synchronized (sink) {
                for (int i = 0; i < 3_000; i++) {
                    assertEquals(i, sink.msgs.get(i));
                }
            }
        }
    }

    @Test
    void aDelayMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new DelayLine(new Sink(0), 0, "x"));
    }
}
