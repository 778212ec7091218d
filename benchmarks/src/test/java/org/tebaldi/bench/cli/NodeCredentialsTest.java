package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.server.net.ClusterSecret;
import org.tebaldi.server.process.ClusterCredentials;
import org.tebaldi.server.zk.ClusterManifest;
import org.tebaldi.server.zk.ClusterStore;
import org.tebaldi.server.zk.EmbeddedZooKeeper;
import org.tebaldi.server.zk.ZkConnection;
import org.tebaldi.server.zk.ZkPaths;

/**
 * {@code tebaldi node --credentials DIR} (docs/cluster.md, "Security"): a directory that does not exist is one
 * message and exit code 2; against a published TLS cluster whose znodes carry the digest ACL (embedded ZooKeeper on
 * loopback), a node without credentials cannot read the manifest and one with the ZooKeeper credentials but no
 * certificate refuses to start — each with one message naming {@code --credentials}, exit code 3.
 */
class NodeCredentialsTest {
    @TempDir
    Path tmp;

    private String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {Integer.toString(code), err.toString().strip(), out.toString()};
    }

    @Test
    void aMissingDirectoryIsOneMessage() {
        String[] r = run("node", "--role", "tc", "--id", "0", "--zk", "127.0.0.1:2181", "--credentials",
                tmp.resolve("nowhere").toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].startsWith("--credentials: '") && r[1].contains("is not a directory") && r[1].contains("Fix:"),
                r[1]);
    }

    @Test
    void aNodeOfATlsClusterNeedsTheCredentials() {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start()) {
            ZkPaths paths = new ZkPaths("sec");
            ClusterCredentials creds = ClusterCredentials.create(tmp.resolve("cluster"), paths, false, List.of());
            try (CuratorFramework c = ZkConnection.open(zk.connectString(), 10_000, 15_000, creds.zkAuth());
                 ClusterStore store = new ClusterStore(c, paths)) {
                store.publishNew(new ClusterManifest(Map.of("name", "bank", "accounts", 20), 1, 1, false, 1, 1000)
                        .withSecret(ClusterSecret.generate().encoded()).withTls(true),
                        "root: {cc: 2pl, txns: [transfer, audit]}\n", creds.zkAuth());
            }
            String[] r = run("node", "--role", "tc", "--id", "0", "--zk", zk.connectString(), "--cluster", "sec");
            assertEquals("3", r[0], r[1]);
            assertTrue(r[1].contains("(NoAuth)") && r[1].contains("--credentials DIR"), r[1]);
            r = run("node", "--role", "tc", "--id", "0", "--zk", zk.connectString(), "--cluster", "sec",
                    "--credentials", creds.dir().toString());
            assertEquals("3", r[0], r[1]);
            assertTrue(r[1].contains("TLS is on (cluster.tls)") && r[1].contains("ca.crt")
                    && r[1].contains("--credentials"), r[1]);
        }
    }
}
