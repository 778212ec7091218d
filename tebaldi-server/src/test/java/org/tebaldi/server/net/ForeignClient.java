package org.tebaldi.server.net;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A JDK TLS client for the TLS tests that presents a given certificate whatever CAs the server asks for (the JDK's
 * own key managers offer only a certificate issued by one of them), so a test can show that a node refuses a
 * certificate another CA issued.
 */
final class ForeignClient {
    private ForeignClient() {
    }

    /** Connects to {@code at} trusting {@code caCert}, presenting {@code cert} and {@code key}; does the handshake. */
    static SSLSocket connect(InetSocketAddress at, Path caCert, Path cert, Path key) throws Exception {
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        X509Certificate ca;
        X509Certificate mine;
        try (InputStream in = Files.newInputStream(caCert); InputStream in2 = Files.newInputStream(cert)) {
            ca = (X509Certificate) cf.generateCertificate(in);
            mine = (X509Certificate) cf.generateCertificate(in2);
        }
        String pem = Files.readString(key).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey pk = KeyFactory.getInstance("EC").generatePrivate(
                new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLSv1.3");
        ctx.init(new KeyManager[] {new Always(mine, pk)}, tmf.getTrustManagers(), null);
        SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket(at.getAddress(), at.getPort());
        s.setSoTimeout(5_000);
        s.startHandshake(); // TLS 1.3: the client is done once it sent its certificate; the server decides after
        return s;
    }

    /** Whether the node ends the connection (an alert, a reset or EOF) within 5 s. */
    static boolean closedByNode(Socket s) throws IOException {
        try {
            return s.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SSLException | java.net.SocketException e) {
            return true;
        }
    }

    /** Always offers the one certificate. */
    private static final class Always extends X509ExtendedKeyManager {
        private final X509Certificate cert;
        private final PrivateKey key;

        Always(X509Certificate cert, PrivateKey key) {
            this.cert = cert;
            this.key = key;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"me"};
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "me";
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return "me";
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return new X509Certificate[] {cert};
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return key;
        }
    }
}
