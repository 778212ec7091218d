package org.tebaldi.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.msg.AbortRequest;

/**
 * The Netty transport between two runtimes of this JVM over loopback: FIFO delivery, write batching (many frames
 * per flush when an actor sends a burst), the per-peer queue bound (messages beyond it are dropped and counted,
 * the sender never blocks), waiting for a node that has not registered yet, and reconnecting after the receiver
 * restarts on another port.
 */
class NettyTransportTest {
    private final StaticDirectory dir = new StaticDirectory();
    private final List<EmbeddedRuntime> runtimes = new CopyOnWriteArrayList<>();
    private static final NodeId A = NodeId.tc(0);
    private static final NodeId B = NodeId.ds(0);

    /** Records the ids of the AbortRequests it receives. */
    static final class Sink implements Actor {
        final List<Long> got = new CopyOnWriteArrayList<>();

        @Override
        public void onStart(NodeContext ctx) {
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            if (msg instanceof AbortRequest r) {
                got.add(r.txnId());
            }
        }
    }

    /** Sends {@code n} AbortRequests in one turn when told to (an injected Long). */
    static final class Burst implements Actor {
        NodeContext ctx;

        @Override
        public void onStart(NodeContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            if (msg instanceof long[] range) {
                for (long i = range[0]; i < range[1]; i++) {
                    ctx.send(B, new AbortRequest(i));
                }
            }
        }
    }

    private NettyTransport[] holder = new NettyTransport[1];

    private EmbeddedRuntime runtime(NettyOptions o, String name) {
        EmbeddedRuntime rt = new EmbeddedRuntime(2, r -> {
            NettyTransport t = new NettyTransport(r, r::hosts, r.stats(), CodecRegistry.classPath(), CodecContext.NONE,
                    dir, o, name);
            holder[0] = t;
            return t;
        });
        runtimes.add(rt);
        return rt;
    }

    @AfterEach
    void close() {
        runtimes.forEach(EmbeddedRuntime::close);
    }

    private static void await(BooleanSupplier c, String what) throws InterruptedException {
        Await.until(c, what, 10);
    }

    @Test
    void burstsArriveInOrderInFewFlushes() throws Exception {
        EmbeddedRuntime ra = runtime(NettyOptions.defaults(), "a");
        NettyTransport ta = holder[0];
        EmbeddedRuntime rb = runtime(NettyOptions.defaults(), "b");
        NettyTransport tb = holder[0];
        Sink sink = new Sink();
        rb.spawn(B, sink);
        dir.put(B, tb.bind("127.0.0.1", 0));
        ra.spawn(A, new Burst());
        ra.inject(A, new long[] {0, 20_000});
        await(() -> sink.got.size() == 20_000, "20,000 messages");
        for (int i = 0; i < 20_000; i++) {
            assertEquals(i, sink.got.get(i), "FIFO");
        }
        TransportStats s = ta.transportStats();
        assertEquals(20_000, s.frames());
        assertTrue(s.flushes() * 10 < s.frames(), "batched: " + s);
        assertEquals(20_000, ra.stats().count(AbortRequest.class), "counted once, at the sender");
        assertEquals(0, s.dropped());
    }

    @Test
    void boundedQueueDropsBeyondTheBoundAndDeliversTheRestOnceThePeerRegisters() throws Exception {
        EmbeddedRuntime ra = runtime(NettyOptions.defaults().withQueueBound(100), "a");
        NettyTransport ta = holder[0];
        ra.spawn(A, new Burst());
        ra.inject(A, new long[] {0, 150});
        await(() -> ta.transportStats().dropped() == 50, "50 drops");
        assertEquals(100, ta.queued(B), "the bound holds the first 100");
        EmbeddedRuntime rb = runtime(NettyOptions.defaults(), "b");
        NettyTransport tb = holder[0];
        Sink sink = new Sink();
        rb.spawn(B, sink);
        dir.put(B, tb.bind("127.0.0.1", 0));
        await(() -> sink.got.size() == 100, "the queued 100");
        assertEquals(0L, sink.got.get(0));
        assertEquals(99L, sink.got.get(99));
    }

    @Test
    void reconnectsWhenThePeerMovesAndDropsWhenItIsDown() throws Exception {
        EmbeddedRuntime ra = runtime(NettyOptions.defaults(), "a");
        NettyTransport ta = holder[0];
        ra.spawn(A, new Burst());
        EmbeddedRuntime rb = runtime(NettyOptions.defaults(), "b");
        NettyTransport tb = holder[0];
        Sink first = new Sink();
        rb.spawn(B, first);
        dir.put(B, tb.bind("127.0.0.1", 0));
        ra.inject(A, new long[] {0, 10});
        await(() -> first.got.size() == 10, "first 10");
        rb.close();
        EmbeddedRuntime rc = runtime(NettyOptions.defaults(), "c");
        NettyTransport tc = holder[0];
        Sink second = new Sink();
        rc.spawn(B, second);
        InetSocketAddress moved = tc.bind("127.0.0.1", 0);
        dir.put(B, moved);
        ra.inject(A, new long[] {10, 20});
        await(() -> second.got.size() == 10, "10 after the move");
        assertEquals(10L, second.got.get(0));
        assertTrue(ta.transportStats().connects() >= 2, "reconnected: " + ta.transportStats());
        dir.remove(B);
        long before = ta.transportStats().dropped();
        ra.inject(A, new long[] {20, 25});
        await(() -> ta.transportStats().dropped() == before + 5, "drops to a node that is down");
    }
}
