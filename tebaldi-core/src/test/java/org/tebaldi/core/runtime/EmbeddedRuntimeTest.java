package org.tebaldi.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EmbeddedRuntimeTest {
    /** Sends {@code n} numbered messages to {@code to} on start. */
    private static final class Sender implements Actor {
        final NodeId to;
        final int n;

        final int base;

        Sender(NodeId to, int n) {
            this(to, n, 0);
        }

        Sender(NodeId to, int n, int base) {
            this.to = to;
            this.n = n;
            this.base = base;
        }

        @Override
        public void onStart(NodeContext ctx) {
            for (int i = 0; i < n; i++) {
                ctx.send(to, base + i);
            }
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
        }
    }

    /** Records what it receives, and checks it is never run by two threads at once. */
    private static final class Recorder implements Actor {
        final List<Object> got = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger inside = new AtomicInteger();
        final CountDownLatch done;
        volatile boolean overlapped;
        volatile long lastArrivalNanos;

        Recorder(int expect) {
            done = new CountDownLatch(expect);
        }

        @Override
        public void onStart(NodeContext ctx) {
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            if (inside.incrementAndGet() != 1) {
                overlapped = true;
            }
            got.add(msg);
            lastArrivalNanos = System.nanoTime();
            inside.decrementAndGet();
            done.countDown();
        }
    }

    /** An actor that keeps its context, to read the runtime's clock. */
    private static final class ClockReader implements Actor {
        final CountDownLatch started = new CountDownLatch(1);
        volatile NodeContext ctx;

        @Override
        public void onStart(NodeContext c) {
            ctx = c;
            started.countDown();
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
        }
    }

    private static NodeContext contextOf(EmbeddedRuntime rt) throws InterruptedException {
        ClockReader r = new ClockReader();
        rt.spawn(NodeId.ds(0), r);
        assertTrue(r.started.await(10, TimeUnit.SECONDS));
        return r.ctx;
    }

    /**
     * Two runtimes made 300 ms apart (two node processes launched one after another) read the same clock once both
     * count from one wall-clock origin; without it the later one's clock trails by the 300 ms.
     */
    @Test
    void runtimesAlignedToOneOriginShareAClock() throws Exception {
        long origin = java.time.Instant.now().minusSeconds(5).toEpochMilli() * 1_000;
        try (EmbeddedRuntime early = new EmbeddedRuntime(1, 0)) {
            NodeContext e = contextOf(early);
            Thread.sleep(300);
            try (EmbeddedRuntime late = new EmbeddedRuntime(1, 0)) {
                NodeContext l = contextOf(late);
                long lateFirst = l.nowMicros(); // read first: a pause before the second read cannot shrink the gap
                long unaligned = e.nowMicros() - lateFirst;
                assertTrue(unaligned >= 250_000, "unaligned clocks differ by the start gap: " + unaligned + " µs");
                early.alignClock(origin);
                late.alignClock(origin);
                // the late clock read between two reads of the early one, until no pause came between the reads
                // (a loaded machine may stop the thread for longer than the tolerance)
                long a;
                long b;
                long a2;
                int tries = 0;
                do {
                    a = e.nowMicros();
                    b = l.nowMicros();
                    a2 = e.nowMicros();
                } while (a2 - a > 5_000 && ++tries < 1_000);
                assertTrue(a2 - a <= 5_000, "no read of both clocks within 5 ms in 1000 tries");
                assertTrue(b - a < 50_000 && a2 - b < 50_000, "aligned clocks differ by " + (a - b) + " to "
                        + (a2 - b) + " µs");
                assertTrue(a >= 5_000_000 && a < 65_000_000, "µs since the origin, 5 s ago: " + a);
            }
        }
    }

    @Test
    void messagesArriveFifoPerLinkAndActorsAreSingleThreaded() throws Exception {
        try (EmbeddedRuntime rt = new EmbeddedRuntime(4, 0)) {
            Recorder r = new Recorder(3 * 2000);
            rt.spawn(NodeId.ds(0), r);
            for (int s = 0; s < 3; s++) {
                rt.spawn(NodeId.tc(s), new Sender(NodeId.ds(0), 2000, s * 100_000));
            }
            assertTrue(r.done.await(10, TimeUnit.SECONDS));
            assertTrue(!r.overlapped, "an actor ran on two threads at once");
            assertEquals(6000, rt.stats().count(Integer.class));
            int[] next = new int[3];
            for (Object o : new ArrayList<>(r.got)) {
                int v = (Integer) o;
                assertEquals(next[v / 100_000]++, v % 100_000, "sender " + v / 100_000 + " out of order");
            }
        }
    }

    @Test
    void fifoPerLinkWithEmulatedDelay() throws Exception {
        try (EmbeddedRuntime rt = new EmbeddedRuntime(2, 100)) {
            Recorder r = new Recorder(500);
            rt.spawn(NodeId.ds(0), r);
            rt.spawn(NodeId.tc(0), new Sender(NodeId.ds(0), 500));
            assertTrue(r.done.await(10, TimeUnit.SECONDS));
            for (int i = 0; i < 500; i++) {
                assertEquals(i, r.got.get(i));
            }
        }
    }

    private static long workersCpu(ThreadMXBean mx, EmbeddedRuntime rt) {
        long sum = 0;
        for (long id : rt.workerThreadIds()) {
            sum += mx.getThreadCpuTime(id);
        }
        return sum;
    }

    @Test
    void emulatedDelayIsWaitedWithoutSpinning() throws Exception {
        long delayMicros = 300_000;
        try (EmbeddedRuntime rt = new EmbeddedRuntime(2, delayMicros)) {
            Recorder r = new Recorder(1);
            rt.spawn(NodeId.ds(0), r);
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long cpu0 = workersCpu(mx, rt);
            long t0 = System.nanoTime();
            rt.spawn(NodeId.tc(0), new Sender(NodeId.ds(0), 1));
            assertTrue(r.done.await(10, TimeUnit.SECONDS));
            long waited = r.lastArrivalNanos - t0;
            long cpu = workersCpu(mx, rt) - cpu0;
            assertTrue(waited >= delayMicros * 1000, "delivered after " + waited / 1000 + " µs, before the delay");
            assertTrue(cpu < waited / 10, "workers burnt " + cpu / 1000 + " µs CPU while waiting "
                    + waited / 1000 + " µs");
        }
    }

    @Test
    void timersFireOnTheActorAndCanBeCancelled() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        AtomicInteger cancelledRuns = new AtomicInteger();
        try (EmbeddedRuntime rt = new EmbeddedRuntime(2, 0)) {
            rt.spawn(NodeId.ds(0), new Actor() {
                @Override
                public void onStart(NodeContext ctx) {
                    Cancellable c = ctx.schedule(20_000, cancelledRuns::incrementAndGet);
                    ctx.schedule(40_000, fired::countDown);
                    c.cancel();
                }

                @Override
                public void onMessage(NodeId from, Object msg) {
                }
            });
            assertTrue(fired.await(5, TimeUnit.SECONDS));
            assertEquals(0, cancelledRuns.get());
        }
    }

    @Test
    void aSoonerTimerWakesTheWorkerSleepingUntilALaterOne() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        try (EmbeddedRuntime rt = new EmbeddedRuntime(2, 0)) {
            NodeContext[] ctx = new NodeContext[1];
            CountDownLatch started = new CountDownLatch(1);
            rt.spawn(NodeId.ds(0), new Actor() {
                @Override
                public void onStart(NodeContext c) {
                    ctx[0] = c;
                    c.schedule(60_000_000, () -> { }); // a minute: the idle workers sleep until then
                    started.countDown();
                }

                @Override
                public void onMessage(NodeId from, Object msg) {
                    ctx[0].schedule(10_000, fired::countDown);
                }
            });
            assertTrue(started.await(5, TimeUnit.SECONDS));
            Thread.sleep(50); // let the workers park
            long t0 = System.nanoTime();
            rt.inject(NodeId.ds(0), "go");
            assertTrue(fired.await(5, TimeUnit.SECONDS), "the 10 ms timer fired");
            assertTrue(System.nanoTime() - t0 >= 10_000_000L, "not before its deadline");
        }
    }

    @Test
    void actorFailuresAreKeptAndTheActorGoesOn() throws Exception {
        try (EmbeddedRuntime rt = new EmbeddedRuntime(1, 0)) {
            CountDownLatch second = new CountDownLatch(1);
            rt.spawn(NodeId.ds(0), new Actor() {
                @Override
                public void onStart(NodeContext ctx) {
                }

                @Override
                public void onMessage(NodeId from, Object msg) {
                    if (msg.equals("boom")) {
                        throw new IllegalStateException("boom");
                    }
                    second.countDown();
                }
            });
            rt.inject(NodeId.ds(0), "boom");
            rt.inject(NodeId.ds(0), "ok");
            assertTrue(second.await(5, TimeUnit.SECONDS));
            assertEquals(1, rt.failures().size());
        }
    }
}
