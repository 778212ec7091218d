package org.tebaldi.server.net;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's mutual-TLS settings for the Netty transport (docs/cluster.md, "Security"; {@code cluster.tls}): its
 * certificate and private key, and the cluster CA as the only trusted issuer, loaded from the PEM files
 * {@link ClusterCa} wrote. Both directions use Netty's {@link SslContextBuilder} on the JDK's provider, TLS 1.3
 * only: an accepting node requires the peer's certificate ({@link ClientAuth#REQUIRE}), a connecting node checks
 * the accepting node's, and either refuses a chain that does not end at the cluster CA. Host names are not checked
 * (nodes reach each other by whatever address they registered): a certificate proves "a node of this cluster",
 * not which node. The {@link ClusterSecret} handshake still runs inside the TLS connection.
 */
public final class NodeTls {
    private static final Logger LOG = LoggerFactory.getLogger(NodeTls.class);
    private static final String[] PROTOCOLS = {"TLSv1.3"};
    private final String name;
    private final SslContext server;
    private final SslContext client;

    private NodeTls(String name, SslContext server, SslContext client) {
        this.name = name;
        this.server = server;
        this.client = client;
    }

    /**
     * Node {@code name}'s settings from a directory {@link ClusterCa#generate} wrote: {@value ClusterCa#CA_CERT},
     * {@code <name>.crt}, {@code <name>.key}.
     *
     * @throws IllegalStateException naming the missing or unreadable file and the fix
     */
    public static NodeTls load(Path dir, String name) {
        return load(dir.resolve(ClusterCa.CA_CERT), ClusterCa.certOf(dir, name), ClusterCa.keyOf(dir, name));
    }

    /**
     * Settings trusting the CA certificate {@code caCert} and presenting {@code cert} with {@code key} (PEM files;
     * the key PKCS#8). A key file readable by other users is used, with a warning.
     *
     * @throws IllegalStateException naming the missing or unreadable file and the fix
     */
    public static NodeTls load(Path caCert, Path cert, Path key) {
        for (Path f : new Path[] {caCert, cert, key}) {
            if (!Files.isReadable(f)) {
                throw new IllegalStateException("TLS is on (cluster.tls) but " + f + " is missing or unreadable: "
                        + "give the node the credentials directory its runner wrote (<run dir>/cluster, "
                        + "--credentials DIR), which holds tls/ca.crt and tls/<node>.crt and .key");
            }
        }
        if (PrivateFiles.readableByOthers(key)) {
            LOG.warn("the private key {} can be read by other users: chmod 600 it", key);
        }
        try {
            SslContext server = SslContextBuilder.forServer(cert.toFile(), key.toFile()).trustManager(caCert.toFile())
                    .clientAuth(ClientAuth.REQUIRE).sslProvider(SslProvider.JDK).protocols(PROTOCOLS).build();
            SslContext client = SslContextBuilder.forClient().keyManager(cert.toFile(), key.toFile())
                    .trustManager(caCert.toFile()).sslProvider(SslProvider.JDK).protocols(PROTOCOLS).build();
            return new NodeTls(cert.getFileName().toString(), server, client);
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot load the TLS certificate " + cert + " and key " + key
                    + " trusting " + caCert + ": " + e.getMessage(), e);
        }
    }

    /** A handler for an accepted connection (first in its pipeline). */
    SslHandler acceptor(ByteBufAllocator alloc) {
        return server.newHandler(alloc);
    }

    /** A handler for an outgoing connection (first in its pipeline). */
    SslHandler connector(ByteBufAllocator alloc) {
        return client.newHandler(alloc);
    }

    @Override
    public String toString() {
        return "NodeTls[" + name + ", TLSv1.3, mutual]";
    }
}
