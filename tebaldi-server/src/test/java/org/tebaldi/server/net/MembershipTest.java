package org.tebaldi.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.NodeId;

/**
 * Only members of the cluster get in: a node holding the cluster secret accepts a peer that proves the same secret
 * and rejects (closes, delivers nothing) a peer with another secret or none.
 */
class MembershipTest {
    private static final NodeId B = NodeId.ds(0);
    private final StaticDirectory dir = new StaticDirectory();
    private final List<EmbeddedRuntime> runtimes = new CopyOnWriteArrayList<>();
    private final NettyTransport[] last = new NettyTransport[1];

    private EmbeddedRuntime runtime(ClusterSecret s, String name) {
        EmbeddedRuntime rt = new EmbeddedRuntime(1, r -> {
            last[0] = new NettyTransport(r, r::hosts, r.stats(), RawPeer.REG, CodecContext.NONE, dir,
                    NettyOptions.defaults().withSecret(s), name);
            return last[0];
        });
        runtimes.add(rt);
        return rt;
    }

    @AfterEach
    void close() {
        runtimes.forEach(EmbeddedRuntime::close);
    }

    @Test
    void onlyAPeerWithTheClusterSecretIsHeard() throws Exception {
        ClusterSecret secret = ClusterSecret.generate();
        EmbeddedRuntime rb = runtime(secret, "b");
        NettyTransport tb = last[0];
        NettyTransportTest.Sink sink = new NettyTransportTest.Sink();
        rb.spawn(B, sink);
        dir.put(B, tb.bind("127.0.0.1", 0));

        EmbeddedRuntime wrong = runtime(ClusterSecret.generate(), "wrong");
        wrong.spawn(NodeId.tc(1), new NettyTransportTest.Burst());
        wrong.inject(NodeId.tc(1), new long[] {100, 110});
        EmbeddedRuntime none = runtime(ClusterSecret.NONE, "none");
        none.spawn(NodeId.tc(2), new NettyTransportTest.Burst());
        none.inject(NodeId.tc(2), new long[] {200, 210});
        Await.until(() -> tb.transportStats().rejected() >= 2, "both outsiders rejected", 10);

        EmbeddedRuntime member = runtime(secret, "member");
        member.spawn(NodeId.tc(0), new NettyTransportTest.Burst());
        member.inject(NodeId.tc(0), new long[] {0, 10});
        Await.until(() -> sink.got.size() >= 10, "the member's 10 messages", 10);
        Thread.sleep(300);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), List.copyOf(sink.got),
                "only the member's messages are delivered");
        assertEquals(0, tb.transportStats().received() - 10, "no outsider frame was decoded");
        assertEquals(0, tb.transportStats().errors());
    }

    @Test
    void aSecretRoundTripsThroughItsEncodingAndABadOneIsRefused() {
        ClusterSecret s = ClusterSecret.generate();
        byte[] nonce = ClusterSecret.nonce();
        ClusterSecret back = ClusterSecret.parse(s.encoded());
        assertTrue(back.verify(nonce, 42, "ds0", s.mac(nonce, 42, "ds0")));
        assertTrue(!back.verify(nonce, 42, "ds1", s.mac(nonce, 42, "ds0")), "the name is covered");
        assertTrue(!ClusterSecret.generate().verify(nonce, 42, "ds0", s.mac(nonce, 42, "ds0")));
        assertEquals(ClusterSecret.NONE, ClusterSecret.parse(null));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ClusterSecret.parse("%%%")).getMessage()
                .contains("base64"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ClusterSecret.parse("AAAA")).getMessage()
                .contains("at least 16"));
        assertTrue(!s.toString().contains(s.encoded()), "toString hides the key");
    }
}
