package org.tebaldi.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.NodeId;

/**
 * Mutual TLS on the Netty transport (docs/cluster.md, "Security"; {@code cluster.tls}) between runtimes of this JVM
 * on loopback, with certificates {@link ClusterCa} generates: nodes of one cluster CA exchange messages in order
 * (the cluster-secret handshake running inside TLS, and still refusing a peer with another secret); a peer whose
 * certificate another CA issued is refused — the handshake fails, the connection closes, nothing it sent is
 * delivered and the rejection names the TLS failure — and so are a plain-TCP peer and a TLS peer of a plain node;
 * without TLS the wire is the old protocol (the challenge arrives in clear). Also: the files' permissions (keys
 * 0600) and the message naming a missing certificate.
 */
class TlsTransportTest {
    private static final NodeId B = NodeId.ds(0);
    @TempDir
    static Path tmp;
    private static Path ca1;
    private static Path ca2;

    private final ClusterSecret secret = ClusterSecret.generate();
    private final StaticDirectory dir = new StaticDirectory();
    private final List<EmbeddedRuntime> runtimes = new CopyOnWriteArrayList<>();
    private final NettyTransport[] last = new NettyTransport[1];

    @BeforeAll
    static void certificates() {
        ca1 = tmp.resolve("one");
        ca2 = tmp.resolve("two");
        ClusterCa.generate(ca1, "one", List.of("a", "b", "c"));
        ClusterCa.generate(ca2, "two", List.of("x"));
    }

    private EmbeddedRuntime runtime(NettyOptions o, String name) {
        EmbeddedRuntime rt = new EmbeddedRuntime(1, r -> {
            last[0] = new NettyTransport(r, r::hosts, r.stats(), RawPeer.REG, CodecContext.NONE, dir, o, name);
            return last[0];
        });
        runtimes.add(rt);
        return rt;
    }

    private NettyOptions tls(NodeTls t) {
        return NettyOptions.defaults().withSecret(secret).withTls(t);
    }

    /** Starts node B (a sink) with {@code o}; returns its transport. */
    private NettyTransport receiver(NettyOptions o, NettyTransportTest.Sink sink) {
        EmbeddedRuntime rb = runtime(o, "b");
        NettyTransport tb = last[0];
        rb.spawn(B, sink);
        dir.put(B, tb.bind("127.0.0.1", 0));
        return tb;
    }

    /** Starts a sender with {@code o} and has it send messages {@code from..to-1} to B; returns its transport. */
    private NettyTransport send(NettyOptions o, String name, int tc, long from, long to) {
        EmbeddedRuntime r = runtime(o, name);
        NettyTransport t = last[0];
        r.spawn(NodeId.tc(tc), new NettyTransportTest.Burst());
        r.inject(NodeId.tc(tc), new long[] {from, to});
        return t;
    }

    @AfterEach
    void close() {
        runtimes.forEach(EmbeddedRuntime::close);
    }

    @Test
    void nodesOfOneCaExchangeMessagesInOrderAndTheSecretIsStillChecked() throws Exception {
        NettyTransportTest.Sink sink = new NettyTransportTest.Sink();
        NettyTransport tb = receiver(tls(NodeTls.load(ca1, "b")), sink);
        NettyTransport ta = send(tls(NodeTls.load(ca1, "a")), "a", 0, 0, 5_000);
        Await.until(() -> sink.got.size() == 5_000, "5,000 messages over TLS", 20);
        for (int i = 0; i < 5_000; i++) {
            assertEquals(i, sink.got.get(i), "FIFO");
        }
        assertEquals(5_000, ta.transportStats().frames());
        assertEquals(0, tb.transportStats().rejected());
        // a certificate of this CA but another cluster secret: TLS lets it in, the hello does not
        NettyTransport tc = send(NettyOptions.defaults().withSecret(ClusterSecret.generate())
                .withTls(NodeTls.load(ca1, "c")), "c", 1, 100, 110);
        Await.until(() -> tb.transportStats().rejected() >= 1, "the peer with another secret rejected", 10);
        assertTrue(tb.rejections().last().contains("is not a member of this cluster"), tb.rejections().last());
        Thread.sleep(200);
        assertEquals(5_000, sink.got.size(), "nothing from the peer with another secret");
        assertEquals(0, tb.transportStats().errors() + ta.transportStats().errors() + tc.transportStats().errors());
    }

    @Test
    void aPeerWithACertificateOfAnotherCaIsRefused() throws Exception {
        NettyTransportTest.Sink sink = new NettyTransportTest.Sink();
        NettyTransport tb = receiver(tls(NodeTls.load(ca1, "b")), sink);
        // a client that trusts this cluster's CA (so it accepts b) and presents a certificate another CA issued
        try (SSLSocket s = ForeignClient.connect(dir.addressOf(B), ca1.resolve(ClusterCa.CA_CERT),
                ClusterCa.certOf(ca2, "x"), ClusterCa.keyOf(ca2, "x"))) {
            assertTrue(ForeignClient.closedByNode(s), "the node closes the connection");
        }
        Await.until(() -> tb.transportStats().rejected() >= 1, "the foreign certificate refused", 10);
        String why = tb.rejections().last();
        assertTrue(why.startsWith("TLS handshake failed (") && why.contains("certification path"), why);
        assertTrue(why.contains("not issued by this cluster's CA"), why);
        // a transport with that certificate: its TLS stack offers none the cluster CA issued, and is refused too
        NettyTransport tx = send(tls(NodeTls.load(ca1.resolve(ClusterCa.CA_CERT), ClusterCa.certOf(ca2, "x"),
                ClusterCa.keyOf(ca2, "x"))), "x", 1, 100, 110);
        Await.until(() -> tb.transportStats().rejected() >= 2, "the transport with the foreign certificate refused", 10);
        assertTrue(tb.rejections().last().startsWith("TLS handshake failed ("), tb.rejections().last());
        Await.until(() -> tx.transportStats().rejected() >= 1, "the refused peer sees its connection fail", 10);
        assertTrue(tx.rejections().last().startsWith("TLS"), tx.rejections().last());
        // a node wholly of the other cluster: it refuses b's certificate, and b sees the handshake fail
        long before = tb.transportStats().rejected();
        NettyTransport ty = send(tls(NodeTls.load(ca2, "x")), "y", 2, 200, 210);
        Await.until(() -> ty.transportStats().rejected() >= 1, "the other cluster's node refuses b", 10);
        assertTrue(ty.rejections().last().contains("certification path"), ty.rejections().last());
        Await.until(() -> tb.transportStats().rejected() > before, "b sees that handshake fail too", 10);
        Thread.sleep(200);
        assertEquals(List.of(), List.copyOf(sink.got), "nothing a refused peer sent is delivered");
        assertEquals(0, tb.transportStats().received());
        assertEquals(0, tx.transportStats().connects() + ty.transportStats().connects(), "no link came up");
        assertEquals(0, tb.transportStats().errors() + tx.transportStats().errors() + ty.transportStats().errors());
    }

    @Test
    void plainAndTlsPeersDoNotMixAndWithoutTlsTheWireIsUnchanged() throws Exception {
        NettyTransportTest.Sink sink = new NettyTransportTest.Sink();
        NettyTransport tb = receiver(tls(NodeTls.load(ca1, "b")), sink);
        try (RawPeer p = new RawPeer(dir.addressOf(B))) { // plain TCP: sends a hello-sized frame, no TLS record
            p.write(RawPeer.frame(Frames.HELLO, new byte[48]));
            assertTrue(p.closedByNode(5_000), "a plain-TCP peer is disconnected");
        }
        Await.until(() -> tb.transportStats().rejected() >= 1, "the plain peer rejected", 10);
        assertTrue(tb.rejections().last().contains("TLS handshake failed (NotSslRecordException"),
                tb.rejections().last());
        close();
        runtimes.clear();

        NettyTransportTest.Sink plainSink = new NettyTransportTest.Sink();
        NettyTransport plain = receiver(NettyOptions.defaults().withSecret(secret), plainSink);
        try (RawPeer p = new RawPeer(dir.addressOf(B))) { // the old protocol: the challenge in clear, then a hello
            assertEquals(ClusterSecret.NONCE_BYTES, p.challenge().length);
            p.hello(secret, "raw");
            p.write(RawPeer.messageFrame(NodeId.tc(3), B, new org.tebaldi.server.msg.AbortRequest(7)));
            Await.until(() -> plainSink.got.contains(7L), "the plain peer's message", 10);
        }
        NettyTransport ta = send(NettyOptions.defaults().withSecret(secret), "a", 0, 0, 100);
        Await.until(() -> plainSink.got.size() == 101, "100 messages without TLS", 10);
        assertEquals(0, plain.transportStats().rejected() + ta.transportStats().rejected());
        // a TLS node cannot talk to a plain one: each side rejects the other's bytes
        NettyTransport tt = send(tls(NodeTls.load(ca1, "a")), "t", 1, 500, 510);
        Await.until(() -> tt.transportStats().rejected() >= 1 && plain.transportStats().rejected() >= 1,
                "both sides of a TLS-to-plain connection reject it", 10);
        assertTrue(tt.rejections().last().startsWith("TLS"), tt.rejections().last());
        Thread.sleep(200);
        assertEquals(101, plainSink.got.size(), "nothing from the TLS peer reached the plain node");
    }

    @Test
    void keysAreOwnerOnlyAndAMissingCertificateIsNamed() throws Exception {
        if (Files.getFileStore(ca1).supportsFileAttributeView("posix")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    ClusterCa.keyOf(ca1, "a"))));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ca1)));
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    ca1.resolve(ClusterCa.CA_CERT))));
        }
        assertTrue(Files.readString(ClusterCa.keyOf(ca1, "a")).startsWith("-----BEGIN PRIVATE KEY-----"));
        try (var files = Files.list(ca1)) {
            assertEquals(List.of("a.crt", "a.key", "b.crt", "b.key", "c.crt", "c.key", "ca.crt"),
                    files.map(f -> f.getFileName().toString()).sorted().toList(), "the CA's key is never written");
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> NodeTls.load(ca1, "ds7"));
        assertTrue(e.getMessage().contains("ds7.crt") && e.getMessage().contains("--credentials"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ClusterCa.generate(tmp.resolve("bad"), "c",
                List.of("../etc")));
    }
}
