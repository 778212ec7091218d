package org.tebaldi.server.net;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObjectGenerator;

/**
 * The certificate authority of one cluster (docs/cluster.md, "Security"; {@code cluster.tls}): a fresh CA per
 * cluster and one certificate per node, generated with BouncyCastle's certificate builder when the runner sets the
 * cluster up, written as PEM files into one directory — {@value #CA_CERT} (the CA's certificate, 0644),
 * {@code <node>.crt} (0644) and {@code <node>.key} (PKCS#8, 0600), the directory 0700. Keys are ECDSA on P-256,
 * signatures SHA256withECDSA; certificates are valid from an hour before their creation (clocks of other machines
 * may lag) for {@value #VALID_DAYS} days. A node certificate's subject is {@code CN=<node>} and it serves both TLS
 * roles (extended key usage serverAuth and clientAuth), since every node both accepts and opens connections. The
 * CA's private key is never written: it signs the certificates and is dropped, so no one can issue another
 * certificate of this cluster afterwards (a new cluster gets a new CA).
 */
public final class ClusterCa {
    /** The CA certificate's file name. */
    public static final String CA_CERT = "ca.crt";
    /** Days a generated certificate is valid. */
    public static final int VALID_DAYS = 365;
    private static final SecureRandom RANDOM = new SecureRandom();

    private ClusterCa() {
    }

    /** The certificate file of node {@code name} in a credentials directory. */
    public static Path certOf(Path dir, String name) {
        return dir.resolve(name + ".crt");
    }

    /** The private-key file of node {@code name} in a credentials directory. */
    public static Path keyOf(Path dir, String name) {
        return dir.resolve(name + ".key");
    }

    /**
     * Generates a new CA for cluster {@code cluster} and a certificate for each of {@code nodes} into {@code dir}
     * (created if needed), replacing files of the same names.
     *
     * @param nodes node names, e.g. {@code tc0}, {@code ds1}, {@code ts0}, {@code runner}: simple file names
     * @throws IllegalArgumentException if a name is not a simple file name
     * @throws IllegalStateException    if the JVM lacks EC keys or a file cannot be written
     */
    public static void generate(Path dir, String cluster, Collection<String> nodes) {
        for (String n : nodes) {
            if (!n.matches("[A-Za-z0-9._-]+") || n.startsWith(".")) {
                throw new IllegalArgumentException("'" + n + "' is not a node name for a certificate file");
            }
        }
        PrivateFiles.directory(dir);
        try {
            Instant now = Instant.now();
            Date from = Date.from(now.minus(Duration.ofHours(1)));
            Date to = Date.from(now.plus(Duration.ofDays(VALID_DAYS)));
            KeyPair ca = keyPair();
            X500Name caName = name("tebaldi cluster CA " + cluster);
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(caName, serial(), from, to, caName,
                    ca.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            ext.createSubjectKeyIdentifier(ca.getPublic()));
            X509Certificate caCert = sign(b, ca);
            PrivateFiles.open(dir.resolve(CA_CERT), pem(caCert));
            for (String n : nodes) {
                KeyPair kp = keyPair();
                X509v3CertificateBuilder nb = new JcaX509v3CertificateBuilder(caCert, serial(), from, to, name(n),
                        kp.getPublic())
                        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                        .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                                new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
                        .addExtension(Extension.authorityKeyIdentifier, false,
                                ext.createAuthorityKeyIdentifier(caCert))
                        .addExtension(Extension.subjectKeyIdentifier, false,
                                ext.createSubjectKeyIdentifier(kp.getPublic()));
                PrivateFiles.secret(keyOf(dir, n), pem(new JcaPKCS8Generator(kp.getPrivate(), null)));
                PrivateFiles.open(certOf(dir, n), pem(sign(nb, ca)));
            }
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot generate the cluster's certificates: " + e, e);
        }
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return g.generateKeyPair();
    }

    private static X500Name name(String cn) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, cn).build();
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE);
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair issuer)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.getPrivate())));
    }

    private static byte[] pem(Object o) throws IOException {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            if (o instanceof PemObjectGenerator g) {
                w.writeObject(g);
            } else {
                w.writeObject(o);
            }
        }
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
