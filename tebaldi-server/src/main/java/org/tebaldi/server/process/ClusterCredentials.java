package org.tebaldi.server.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.net.ClusterCa;
import org.tebaldi.server.net.NodeTls;
import org.tebaldi.server.net.PrivateFiles;
import org.tebaldi.server.zk.ZkAuth;
import org.tebaldi.server.zk.ZkPaths;

/**
 * The credentials directory of one process-mode cluster (docs/cluster.md, "Security"), written by the runner when it
 * sets the cluster up — {@code <run dir>/cluster}, mode 0700 — and read by every node it launches
 * ({@code tebaldi node --credentials DIR}; nodes started by hand on other machines need a copy):
 * <ul>
 *   <li>{@value #ZK_DIGEST} (0600) — the ZooKeeper digest credentials ({@code user:password}, {@link ZkAuth}) that
 *       every client of the cluster authenticates with; the cluster's znodes carry their ACL;
 *   <li>{@value #TLS_DIR}{@code /} — with {@code cluster.tls} only: the cluster CA's certificate {@code ca.crt}
 *       and each node's {@code <node>.crt} and {@code <node>.key} (0600; {@link ClusterCa}), the runner's as
 *       {@value #RUNNER}. Without TLS the directory has no {@code tls/} (an older run's is removed).
 * </ul>
 * Every cluster the runner creates gets new credentials, replacing those of an earlier run in the same directory.
 */
public final class ClusterCredentials {
    /** The ZooKeeper credentials' file. */
    public static final String ZK_DIGEST = "zk-digest";
    /** The TLS material's subdirectory. */
    public static final String TLS_DIR = "tls";
    /** The certificate name of the runner (client endpoints, control node, hosted monitor and servers). */
    public static final String RUNNER = "runner";

    private final Path dir;
    private final ZkAuth zkAuth;

    private ClusterCredentials(Path dir, ZkAuth zkAuth) {
        this.dir = dir;
        this.zkAuth = zkAuth;
    }

    /** A run's credentials directory: {@code cluster} beside its node log directory ({@code <run dir>/nodes}). */
    public static Path beside(Path logDir) {
        return logDir.toAbsolutePath().resolveSibling("cluster");
    }

    /**
     * Creates new credentials for cluster {@code paths} in {@code dir}: ZooKeeper digest credentials and, if
     * {@code tls}, a new CA and a certificate for each of {@code nodes} and for {@value #RUNNER}.
     *
     * @throws IllegalStateException naming the file if something cannot be written
     */
    public static ClusterCredentials create(Path dir, ZkPaths paths, boolean tls, Collection<NodeId> nodes) {
        Path d = dir.toAbsolutePath();
        PrivateFiles.directory(d);
        ZkAuth auth = ZkAuth.generate(paths);
        PrivateFiles.secret(d.resolve(ZK_DIGEST), (auth.line() + "\n").getBytes(StandardCharsets.UTF_8));
        deleteTree(d.resolve(TLS_DIR));
        if (tls) {
            List<String> names = new ArrayList<>();
            nodes.forEach(n -> names.add(n.toString()));
            names.add(RUNNER);
            ClusterCa.generate(d.resolve(TLS_DIR), paths.cluster(), names);
        }
        return new ClusterCredentials(d, auth);
    }

    /**
     * The credentials the runner of cluster {@code paths} wrote into {@code dir}.
     *
     * @throws IllegalStateException naming the file and the fix if {@value #ZK_DIGEST} is missing or malformed
     */
    public static ClusterCredentials open(Path dir, ZkPaths paths) {
        Path f = dir.toAbsolutePath().resolve(ZK_DIGEST);
        try {
            return new ClusterCredentials(dir.toAbsolutePath(),
                    ZkAuth.parse(paths, Files.readString(f, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot read the cluster's ZooKeeper credentials " + f + " ("
                    + e.getMessage() + "): --credentials must name the directory the cluster's runner wrote (<run dir>/cluster)", e);
        }
    }

    /** The directory (absolute). */
    public Path dir() {
        return dir;
    }

    /** The ZooKeeper digest credentials. */
    public ZkAuth zkAuth() {
        return zkAuth;
    }

    /**
     * Node {@code name}'s TLS settings from {@value #TLS_DIR}{@code /}.
     *
     * @throws IllegalStateException naming the missing file and the fix
     */
    public NodeTls tls(String name) {
        return NodeTls.load(dir.resolve(TLS_DIR), name);
    }

    /**
     * The TLS settings of node {@code id} in the TLS cluster {@code cluster}: the certificate of its {@code NodeId}
     * (every process of a singleton role, e.g. a standby timestamp service, uses {@code ts0}'s).
     *
     * @param creds the node's credentials ({@code --credentials}), or null if it was given none
     * @throws IllegalStateException naming the fix if {@code creds} is null or holds no certificate for the node
     */
    public static NodeTls nodeTls(ClusterCredentials creds, String cluster, NodeId id) {
        if (creds == null) {
            throw new IllegalStateException("cluster " + cluster + " runs mutual TLS between its nodes (cluster.tls) "
                    + "and this node has no certificate: start it with --credentials DIR, the credentials directory "
                    + "its runner wrote (<run dir>/cluster, holding tls/)");
        }
        return creds.tls(id.toString());
    }

    private static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot remove the earlier run's " + p + ": " + e, e);
        }
    }
}
