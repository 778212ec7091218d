package org.tebaldi.server.zk;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * A single ZooKeeper server inside this JVM (docs/architecture.md, "Failures": "single-machine runs start an embedded ZooKeeper"),
 * built on ZooKeeper's own {@link ZooKeeperServerEmbedded}. It listens on loopback only, on a free port, keeps its
 * data in a temporary directory that {@link #close} deletes, and uses a 500 ms tick so sessions can be as short
 * as 1 s (failure detection in seconds, not minutes) and as long as {@link ZkConnection#MAX_SESSION_MILLIS}, so
 * every session timeout a node asks for ({@code cluster.sessionTimeout}) is granted as asked. Not a test utility:
 * process mode uses it when no {@code --zk} is given.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private final Path dir;
    private final ZooKeeperServerEmbedded server;
    private final String connectString;

    private EmbeddedZooKeeper(Path dir, ZooKeeperServerEmbedded server, String connectString) {
        this.dir = dir;
        this.server = server;
        this.connectString = connectString;
    }

    /**
     * Starts a server on {@code 127.0.0.1} and a free port and waits until it serves (at most 30 s).
     *
     * @throws IllegalStateException if it cannot start
     */
    public static EmbeddedZooKeeper start() {
        return start("127.0.0.1");
    }

    /**
     * Starts a server on {@code host} (an address of this machine) and a free port and waits until it serves (at
     * most 30 s).
     *
     * @throws IllegalStateException if it cannot start
     */
    public static EmbeddedZooKeeper start(String host) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("tebaldi-zk-");
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
                port = s.getLocalPort();
            }
            Properties p = new Properties();
            p.setProperty("clientPort", Integer.toString(port));
            p.setProperty("clientPortAddress", host);
            p.setProperty("dataDir", dir.resolve("data").toString());
            p.setProperty("tickTime", "500");
            p.setProperty("minSessionTimeout", "1000");
            p.setProperty("maxSessionTimeout", Integer.toString(ZkConnection.MAX_SESSION_MILLIS));
            p.setProperty("admin.enableServer", "false");
            p.setProperty("maxClientCnxns", "0");
            ZooKeeperServerEmbedded zk = ZooKeeperServerEmbedded.builder().baseDir(dir).configuration(p)
                    .exitHandler(ExitHandler.LOG_ONLY).build();
            zk.start(30_000);
            return new EmbeddedZooKeeper(dir, zk, host + ":" + port);
        } catch (Exception e) {
            if (dir != null) {
                delete(dir);
            }
            throw new IllegalStateException("cannot start the embedded ZooKeeper: " + e, e);
        }
    }

    /** {@code HOST:PORT}, for {@code --zk}. */
    public String connectString() {
        return connectString;
    }

    /** Stops the server and deletes its data. */
    @Override
    public void close() {
        server.close();
        delete(dir);
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temp directory
        }
    }
}
