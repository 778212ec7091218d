package org.tebaldi.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.msg.AbortRequest;

/**
 * Bad input on a node's Netty port: seeded random connections send random bytes, frames of
 * garbage, truncated frames, huge or negative length prefixes, unknown frame kinds, bad hellos, and — after a
 * correct handshake — undecodable messages, unknown codec ids and oversized frames. Every protocol breach must
 * close the connection (counted in {@link TransportStats#rejected()}, at most one log line per second), no
 * exception may reach the event loop unhandled ({@link TransportStats#errors()} stays 0), a huge length prefix
 * allocates nothing, nothing an unauthenticated peer sent is delivered, and a legitimate peer's messages still get
 * through afterwards, on its old connection and on a new one. {@code -Dtebaldi.fuzz.seed=S} replays a run,
 * {@code -Dtebaldi.fuzz.cases=N} sets the number of connections (default 1,000, about 1 s; 4,000 take 3 s).
 */
class WireFuzzTest {
    private static final long SEED = Long.getLong("tebaldi.fuzz.seed", 17);
    private static final int CASES = Integer.getInteger("tebaldi.fuzz.cases", 1000);
    private static final NodeId A = NodeId.tc(0);
    private static final NodeId B = NodeId.ds(0);
    /** Where authenticated garbage is addressed: no such node, so anything that happens to decode is dropped. */
    private static final NodeId NOBODY = NodeId.ds(99);

    private final ClusterSecret secret = ClusterSecret.generate();
    private final StaticDirectory dir = new StaticDirectory();
    private final List<EmbeddedRuntime> runtimes = new CopyOnWriteArrayList<>();
    private final NettyTransport[] last = new NettyTransport[1];
    private EmbeddedRuntime ra;
    private NettyTransport tb;
    private NettyTransportTest.Sink sink;
    private InetSocketAddress addr;

    private enum Outcome { REJECTED, EITHER }

    private EmbeddedRuntime runtime(ClusterSecret s, String name) {
        EmbeddedRuntime rt = new EmbeddedRuntime(1, r -> {
            last[0] = new NettyTransport(r, r::hosts, r.stats(), RawPeer.REG, CodecContext.NONE, dir,
                    NettyOptions.defaults().withSecret(s), name);
            return last[0];
        });
        runtimes.add(rt);
        return rt;
    }

    @BeforeEach
    void start() {
        EmbeddedRuntime rb = runtime(secret, "b");
        tb = last[0];
        sink = new NettyTransportTest.Sink();
        rb.spawn(B, sink);
        addr = tb.bind("127.0.0.1", 0);
        dir.put(B, addr);
        ra = runtime(secret, "a");
        ra.spawn(A, new NettyTransportTest.Burst());
    }

    @AfterEach
    void close() {
        runtimes.forEach(EmbeddedRuntime::close);
    }

    @Test
    void garbageClosesTheConnectionAndTheNodeKeepsServing() throws Exception {
        ra.inject(A, new long[] {0, 10});
        Await.until(() -> sink.got.size() == 10, "the legitimate peer's first 10 messages", 10);
        Random rnd = new Random(SEED);
        long t0 = System.nanoTime();
        int mustReject = 0;
        for (int i = 0; i < CASES; i++) {
            int kind = rnd.nextInt(CASE_KINDS);
            try (RawPeer p = new RawPeer(addr)) {
                Outcome o;
                try {
                    o = fuzz(kind, p, rnd);
                } catch (IOException e) {
                    o = Outcome.REJECTED; // the node closed while we were still writing
                }
                String what = "case " + i + " (kind " + kind + ", seed " + SEED + ")";
                if (o == Outcome.REJECTED) {
                    mustReject++;
                    assertTrue(p.closedByNode(5_000), what + ": the node must close the connection");
                } else {
                    try {
                        p.shutdownOutput();
                    } catch (IOException e) {
                        // already closed by the node
                    }
                    assertTrue(p.closedByNode(5_000), what + ": the connection must end");
                }
            }
        }
        int expected = mustReject;
        Await.until(() -> tb.transportStats().rejected() >= expected, expected + " rejections", 10);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        TransportStats s = tb.transportStats();
        assertEquals(0, s.errors(), "no exception reached the event loop unhandled: " + s);
        assertTrue(tb.rejections().lines() <= seconds + 2, tb.rejections().lines() + " log lines in " + seconds
                + " s: rate-limited to one a second");
        ra.inject(A, new long[] {10, 20});
        Await.until(() -> sink.got.size() >= 20, "the legitimate peer's next 10 messages on its old connection", 10);
        EmbeddedRuntime rc = runtime(secret, "c");
        rc.spawn(NodeId.tc(1), new NettyTransportTest.Burst());
        rc.inject(NodeId.tc(1), new long[] {20, 30});
        Await.until(() -> sink.got.size() >= 30, "a new legitimate peer's 10 messages", 10);
        List<Long> want = new ArrayList<>();
        for (long i = 0; i < 30; i++) {
            want.add(i);
        }
        // a member's mutated frame may decode into a message for this node (members are trusted): only the
        // legitimate ids 0..29 and the unauthenticated peers' ids -1..-3 are checked
        assertEquals(want, sink.got.stream().filter(id -> id >= 0 && id < 30).toList(), "the legitimate messages");
        assertTrue(sink.got.stream().noneMatch(id -> id >= -3 && id < 0), "nothing from an unauthenticated peer");
    }

    @Test
    void aHugeLengthPrefixAllocatesNothing() throws Exception {
        long before = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
        try (RawPeer p = new RawPeer(addr)) {
            p.challenge();
            p.hello(secret, "fuzz");
            // 60 MiB announced (below the 64 MiB limit), 1 KiB sent: only what arrives is buffered
            p.write(ByteBuffer.allocate(4 + 1024).putInt(60 << 20).array());
            Thread.sleep(200);
            long grown = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory() - before;
            assertTrue(grown < 16 << 20, "pooled direct memory grew by " + grown + " bytes");
            assertTrue(!p.closedByNode(200), "a frame still arriving is awaited");
        }
        try (RawPeer p = new RawPeer(addr)) {
            p.challenge();
            p.hello(secret, "fuzz");
            p.write(ByteBuffer.allocate(8).putInt(Frames.MAX_FRAME + 1).array());
            assertTrue(p.closedByNode(5_000), "a prefix beyond the limit closes at once");
        }
        try (RawPeer p = new RawPeer(addr)) {
            p.write(ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).array());
            assertTrue(p.closedByNode(5_000), "before the hello, a 2 GiB prefix closes at once");
        }
        assertEquals(0, tb.transportStats().errors());
    }

    // ---- the fuzz cases ---------------------------------------------------------------------------------------

    private static final int CASE_KINDS = 13;

    private Outcome fuzz(int kind, RawPeer p, Random rnd) throws IOException {
        switch (kind) {
            case 0: { // random bytes, without reading the challenge
                byte[] b = bytes(rnd, 1 + rnd.nextInt(3000));
                p.write(b);
                if (b.length < 4) {
                    return Outcome.EITHER;
                }
                int len = ByteBuffer.wrap(b).getInt();
                return len < 0 || len > Frames.HANDSHAKE_MAX_FRAME || b.length >= 4 + len ? Outcome.REJECTED
                        : Outcome.EITHER;
            }
            case 1: // a frame of garbage of a valid length, before the hello
                p.write(RawPeer.frame(rnd.nextInt(256), bytes(rnd, rnd.nextInt(Frames.HANDSHAKE_MAX_FRAME))));
                return Outcome.REJECTED;
            case 2: { // a truncated frame, before the hello
                int len = 2 + rnd.nextInt(Frames.HANDSHAKE_MAX_FRAME - 1);
                p.write(ByteBuffer.allocate(4 + rnd.nextInt(len)).putInt(len).array());
                return Outcome.EITHER;
            }
            case 3: { // a huge, negative or just-too-long length prefix, before the hello
                int[] lens = {Integer.MAX_VALUE, -1, Integer.MIN_VALUE, Frames.HANDSHAKE_MAX_FRAME + 1,
                    Frames.MAX_FRAME + 1, 1 << 30};
                p.write(ByteBuffer.allocate(4 + rnd.nextInt(64)).putInt(lens[rnd.nextInt(lens.length)]).array());
                return Outcome.REJECTED;
            }
            case 4: // an empty frame
                p.write(new byte[] {0, 0, 0, 0});
                return Outcome.REJECTED;
            case 5: // a well-formed message without a hello: must not be delivered
                p.write(RawPeer.messageFrame(A, B, new AbortRequest(-1)));
                return Outcome.REJECTED;
            case 6: { // a hello under another secret (or none), then a message: must not be delivered
                byte[] nonce = p.challenge();
                ClusterSecret other = rnd.nextBoolean() ? ClusterSecret.NONE : ClusterSecret.generate();
                p.write(RawPeer.helloFrame(other, nonce, RawPeer.REG.fingerprint(), "intruder"));
                p.write(RawPeer.messageFrame(A, B, new AbortRequest(-2)));
                return Outcome.REJECTED;
            }
            case 7: { // a replayed hello (answering another nonce), or a hello cut short
                byte[] nonce = p.challenge();
                byte[] hello = RawPeer.helloFrame(secret, bytes(rnd, nonce.length), RawPeer.REG.fingerprint(), "x");
                if (rnd.nextBoolean()) {
                    byte[] good = RawPeer.helloFrame(secret, nonce, RawPeer.REG.fingerprint(), "x");
                    int cut = 5 + rnd.nextInt(good.length - 5);
                    hello = ByteBuffer.allocate(cut).putInt(cut - 4).put(good, 4, cut - 4).array();
                }
                p.write(hello);
                p.write(RawPeer.messageFrame(A, B, new AbortRequest(-3)));
                return Outcome.REJECTED;
            }
            case 8: { // a right hello with other codecs
                byte[] nonce = p.challenge();
                p.write(RawPeer.helloFrame(secret, nonce, rnd.nextLong(), "other-jar"));
                return Outcome.REJECTED;
            }
            default:
                return authenticated(kind, p, rnd);
        }
    }

    /** Cases after a correct handshake (a member gone bad): garbage must close the connection all the same. */
    private Outcome authenticated(int kind, RawPeer p, Random rnd) throws IOException {
        p.challenge();
        p.hello(secret, "member");
        switch (kind) {
            case 9: { // a message frame with a valid header and a garbage value
                byte[] head = RawPeer.messageFrame(A, NOBODY, 0L);
                byte[] junk = bytes(rnd, 1 + rnd.nextInt(2000));
                ByteBuffer b = ByteBuffer.allocate(head.length - 2 + junk.length);
                b.putInt(head.length - 6 + junk.length).put(head, 4, head.length - 6).put(junk);
                p.write(b.array());
                return Outcome.EITHER; // garbage may happen to decode (then it is dropped: no such node)
            }
            case 10: { // an unknown codec id
                ByteBuffer v = ByteBuffer.allocate(5 + 16).put((byte) 12).putInt(0x7eadbe00 + rnd.nextInt(256));
                v.put(bytes(rnd, 16));
                byte[] head = RawPeer.messageFrame(A, NOBODY, 0L);
                ByteBuffer b = ByteBuffer.allocate(head.length - 2 + v.capacity());
                b.putInt(head.length - 6 + v.capacity()).put(head, 4, head.length - 6).put(v.array());
                p.write(b.array());
                return Outcome.REJECTED;
            }
            case 11: { // a mutated well-formed message, or one cut short and then the connection ends
                byte[] m = RawPeer.messageFrame(A, NOBODY, new AbortRequest(rnd.nextLong()));
                if (rnd.nextBoolean()) {
                    for (int i = 0, n = 1 + rnd.nextInt(3); i < n; i++) {
                        m[5 + rnd.nextInt(m.length - 5)] = (byte) rnd.nextInt(256);
                    }
                    p.write(m);
                } else {
                    p.write(java.util.Arrays.copyOf(m, 4 + rnd.nextInt(m.length - 4)));
                }
                return Outcome.EITHER;
            }
            default: { // an unknown frame kind, a second hello, or a prefix beyond the limit
                int pick = rnd.nextInt(3);
                if (pick == 0) {
                    int k = rnd.nextInt(256);
                    p.write(RawPeer.frame(k == Frames.MESSAGE ? 0 : k, bytes(rnd, rnd.nextInt(100))));
                } else if (pick == 1) {
                    p.write(RawPeer.helloFrame(secret, bytes(rnd, 16), RawPeer.REG.fingerprint(), "member"));
                } else {
                    p.write(ByteBuffer.allocate(8).putInt(Frames.MAX_FRAME + 1 + rnd.nextInt(1000)).array());
                }
                return Outcome.REJECTED;
            }
        }
    }

    private static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }
}
