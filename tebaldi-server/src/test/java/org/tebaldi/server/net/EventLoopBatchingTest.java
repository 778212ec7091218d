package org.tebaldi.server.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.codec.ByteArrayDecoder;
import org.tebaldi.core.codec.ByteArrayEncoder;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;

/**
 * Process mode's transport: actors on the transport's own event loop ({@link NettyTransport#singleLoop}) receive
 * on that thread and send in batches (many frames per flush); messages of mixed sizes and strings from several
 * senders arrive intact and in order per link; timers fire on the loop; strings in a Netty buffer are byte for
 * byte what the byte-array encoder writes, and are read back in place.
 */
class EventLoopBatchingTest {
    private static final CodecRegistry REG = CodecRegistry.classPath();
    private final StaticDirectory dir = new StaticDirectory();
    private final List<EmbeddedRuntime> runtimes = new CopyOnWriteArrayList<>();
    private final NettyTransport[] last = new NettyTransport[1];
    private static final NodeId SINK = NodeId.ds(0);

    /** A message: sequence number, a string (with non-ASCII characters) and a payload whose size varies. */
    private static List<Object> message(long seq) {
        byte[] payload = new byte[(int) (seq * 37 % 3000)];
        Arrays.fill(payload, (byte) seq);
        return List.of(seq, "nº " + seq + " – ünïcødé €" + "x".repeat((int) (seq % 50)), payload);
    }

    /** Records every message with the thread that handled it. */
    static final class Sink implements Actor {
        final List<NodeId> from = new CopyOnWriteArrayList<>();
        final List<List<?>> got = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();

        @Override
        public void onStart(NodeContext ctx) {
        }

        @Override
        public void onMessage(NodeId sender, Object msg) {
            from.add(sender);
            got.add((List<?>) msg);
            threads.add(Thread.currentThread().getName());
        }
    }

    /** On an injected {@code long[]{from, to}}, sends messages {@code from..to-1} to the sink in one turn. */
    static final class Burst implements Actor {
        NodeContext ctx;

        @Override
        public void onStart(NodeContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void onMessage(NodeId sender, Object msg) {
            long[] range = (long[]) msg;
            for (long i = range[0]; i < range[1]; i++) {
                ctx.send(SINK, message(i));
            }
        }
    }

    private EmbeddedRuntime onLoop(String name) {
        EventLoopGroup loop = NettyTransport.singleLoop(name);
        EmbeddedRuntime rt = new EmbeddedRuntime(loop.next(), r -> {
            last[0] = new NettyTransport(r, r::hosts, r.stats(), REG, CodecContext.NONE, dir,
                    NettyOptions.defaults(), name, loop);
            return last[0];
        });
        runtimes.add(rt);
        return rt;
    }

    @AfterEach
    void close() {
        runtimes.forEach(EmbeddedRuntime::close);
    }

    private static void await(BooleanSupplier c, String what) throws InterruptedException {
        Await.until(c, what, 20);
    }

    @Test
    void burstsFromSeveralSendersArriveIntactAndInOrderPerLinkOnTheReceiversLoop() throws Exception {
        EmbeddedRuntime rs = onLoop("sink");
        Sink sink = new Sink();
        rs.spawn(SINK, sink);
        dir.put(SINK, last[0].bind("127.0.0.1", 0));
        List<NodeId> senders = List.of(NodeId.tc(0), NodeId.tc(1), NodeId.tc(2));
        List<NettyTransport> sent = new ArrayList<>();
        List<EmbeddedRuntime> rts = new ArrayList<>();
        for (NodeId s : senders) {
            EmbeddedRuntime r = onLoop(s.toString());
            sent.add(last[0]);
            r.spawn(s, new Burst());
            rts.add(r);
        }
        int perSender = 3000;
        for (int k = 0; k < perSender; k += 500) {
            for (int i = 0; i < senders.size(); i++) {
                rts.get(i).inject(senders.get(i), new long[] {k, k + 500});
            }
        }
        await(() -> sink.got.size() == perSender * senders.size(), "every message");
        for (NodeId s : senders) {
            long next = 0;
            for (int j = 0; j < sink.got.size(); j++) {
                if (sink.from.get(j).equals(s)) {
                    List<?> m = sink.got.get(j);
                    List<Object> want = message(next);
                    assertEquals(want.get(0), m.get(0), "in order on the link from " + s);
                    assertEquals(want.get(1), m.get(1), "string intact");
                    assertArrayEquals((byte[]) want.get(2), (byte[]) m.get(2), "payload intact");
                    next++;
                }
            }
            assertEquals(perSender, next, "all from " + s);
        }
        for (NettyTransport t : sent) {
            TransportStats st = t.transportStats();
            assertEquals(perSender, st.frames());
            assertTrue(st.flushes() * 5 <= st.frames(), "several frames per flush: " + st);
            assertEquals(0, st.dropped());
        }
        assertTrue(sink.threads.stream().allMatch(n -> n.startsWith("tebaldi-net-sink")),
                "handled on the receiver's event loop, no hand-off: " + sink.threads.stream().distinct().toList());
    }

    @Test
    void timersFireOnTheEventLoopAndCancelledOnesDoNot() throws Exception {
        EmbeddedRuntime rt = onLoop("timers");
        List<String> fired = new CopyOnWriteArrayList<>();
        rt.spawn(SINK, new Actor() {
            @Override
            public void onStart(NodeContext ctx) {
                ctx.schedule(2_000, () -> fired.add("kept on " + Thread.currentThread().getName()));
                ctx.schedule(1_000, () -> fired.add("cancelled")).cancel();
            }

            @Override
            public void onMessage(NodeId from, Object msg) {
            }
        });
        await(() -> !fired.isEmpty(), "the timer");
        Thread.sleep(20);
        assertEquals(1, fired.size(), "fired once; the cancelled one never: " + fired);
        assertTrue(fired.get(0).startsWith("kept on tebaldi-net-timers-"), "on the loop: " + fired);
    }

    @Test
    void stringsWrittenIntoTheBufferMatchTheByteArrayEncoding() {
        String lone = new String(new char[] {'a', '\uD800', 'b'});
        String[] cases = {null, "", "plain", "ünïcødé €", "\uD83D\uDE00 emoji", lone, "x".repeat(5000)};
        for (String s : cases) {
            ByteArrayEncoder a = new ByteArrayEncoder(REG);
            a.writeString(s);
            a.writeValue(s);
            ByteBuf b = Unpooled.buffer(8);
            new ByteBufEncoder(REG).into(b).writeString(s);
            new ByteBufEncoder(REG).into(b).writeValue(s);
            byte[] bytes = new byte[b.readableBytes()];
            b.getBytes(0, bytes);
            assertArrayEquals(a.toByteArray(), bytes, "same bytes for " + s);
            ByteBufDecoder d = new ByteBufDecoder(REG, CodecContext.NONE, b);
            String expected = new ByteArrayDecoder(REG, CodecContext.NONE, bytes).readString();
            assertEquals(expected, d.readString());
            assertEquals(expected, d.readValue());
            assertEquals(0, d.remaining());
        }
    }
}
