package org.tebaldi.bench.postgres;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserPrincipal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.tebaldi.bench.experiment.PostgresSpec;

/**
 * A throw-away PostgreSQL server for one run: {@code initdb} into a fresh temporary directory, a configuration for
 * a benchmark on loopback, {@code pg_ctl start}, and on {@link #close()} {@code pg_ctl stop -m immediate} and the
 * directory deleted (also by a shutdown hook if the JVM exits first). Listens on 127.0.0.1 only, on a free port,
 * with trust authentication for the superuser {@value #USER}. Runs as the current user, or as {@code postgres} when
 * the JVM runs as root (PostgreSQL refuses root).
 *
 * <p>Configuration (dissertation Table 5.2 ran PostgreSQL at SERIALIZABLE with fsync off): every transaction
 * {@code serializable} by default; {@code fsync}, {@code synchronous_commit} and {@code full_page_writes} follow
 * {@code postgresql.fsync} (default off); {@code wal_level=minimal} (no replication); shared buffers a quarter of
 * memory up to 2 GB; {@code max_pred_locks_per_transaction=1024} so that the read-only stock_level (about 400 rows)
 * keeps tuple-level SIREAD locks instead of escalating to whole relations; {@code deadlock_timeout=100ms} (the
 * 2PL lock timeout of the Tebaldi trees); no parallel query, no JIT. {@code postgresql.settings} are appended last
 * and override these.
 */
public final class LocalPostgres implements AutoCloseable {
    /** The superuser initdb creates. */
    public static final String USER = "tebaldi";
    private static final long INITDB_SECONDS = 300;
    private static final long START_SECONDS = 120;

    private final PgBinaries bin;
    private final Path dir;
    private final Path data;
    private final boolean root;
    private final int port;
    private final boolean fsync;
    private final Thread hook;
    private boolean closed;

    private LocalPostgres(PgBinaries bin, Path dir, boolean root, int port, boolean fsync) {
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.root = root;
        this.port = port;
        this.fsync = fsync;
        this.hook = new Thread(this::stopQuietly, "tebaldi-pg-stop");
    }

    /**
     * The binaries to use: {@code spec.binDir()}, else the installed ones, else installs them with
     * {@link PgInstaller} (its output goes to {@code notes}).
     *
     * @throws IOException if none can be found or installed (the message says how to fix it)
     */
    public static PgBinaries binaries(PostgresSpec spec, Consumer<String> notes) throws IOException {
        PgBinaries b;
        try {
            b = PgBinaries.find(spec.binDir());
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
        if (b != null) {
            return b;
        }
        notes.accept("PostgreSQL server binaries not found; installing them with " + PgInstaller.SCRIPT);
        PgInstaller.install(line -> notes.accept("  " + line));
        b = PgBinaries.find(null);
        if (b == null) {
            throw new IOException(PgInstaller.SCRIPT + " finished but initdb, pg_ctl and postgres are still not found;"
                    + " set postgresql.binDir");
        }
        return b;
    }

    /**
     * Creates and starts a server.
     *
     * @param maxConnections the server's max_connections (clients plus the loader's connections and some spare)
     * @param notes          receives progress lines (initdb, start)
     * @throws IOException if initdb or the start fails (the message has the end of the server log)
     */
    public static LocalPostgres start(PgBinaries bin, PostgresSpec spec, int maxConnections, Consumer<String> notes)
            throws IOException {
        boolean root = Commands.root();
        if (root && !Commands.userExists(Commands.SERVER_USER)) {
            throw new IOException("running as root, but PostgreSQL refuses to run as root and there is no user '"
                    + Commands.SERVER_USER + "' to run it as; create one (useradd -r -m " + Commands.SERVER_USER
                    + "), run as another user, or set postgresql.url");
        }
        Path dir = Files.createTempDirectory("tebaldi-pg-");
        LocalPostgres pg = null;
        try {
            if (root) {
                UserPrincipal owner = dir.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName(Commands.SERVER_USER);
                Files.setOwner(dir, owner);
            }
            pg = new LocalPostgres(bin, dir, root, freePort(), spec.fsync());
            Runtime.getRuntime().addShutdownHook(pg.hook);
            notes.accept("initdb " + pg.data + " (" + bin.version() + (root ? ", as user " + Commands.SERVER_USER
                    : "") + ")");
            pg.initdb();
            pg.configure(maxConnections, spec.settings());
            notes.accept("starting PostgreSQL on 127.0.0.1:" + pg.port);
            pg.startServer();
            return pg;
        } catch (IOException | RuntimeException e) {
            if (pg != null) {
                pg.close();
            } else {
                deleteTree(dir);
            }
            throw e;
        }
    }

    /** How to connect: loopback, database {@code postgres}, user {@value #USER}, no password. */
    public PgEndpoint endpoint() {
        return new PgEndpoint("jdbc:postgresql://127.0.0.1:" + port + "/postgres", USER, null,
                "local throw-away " + bin.version().replace("postgres (PostgreSQL) ", "PostgreSQL ") + " on 127.0.0.1:"
                        + port + " (fsync " + (fsync ? "on" : "off") + ", data in " + dir + ")");
    }

    /** The temporary directory (data directory, socket, server log). */
    public Path directory() {
        return dir;
    }

    private void initdb() throws IOException {
        List<String> cmd = List.of(bin.initdb().toString(), "-D", data.toString(), "-U", USER, "--auth=trust",
                "--encoding=UTF8", "--locale=C", "--no-sync");
        Commands.Result r = Commands.run(Commands.asServerUser(cmd, root), INITDB_SECONDS, null);
        if (r.exit() != 0) {
            throw new IOException("initdb failed (exit " + r.exit() + "):\n" + r.tail(15));
        }
    }

    /** The settings appended to postgresql.conf, in order (later ones win). */
    static Map<String, String> settings(int port, Path socketDir, int maxConnections, boolean fsync,
                                        Map<String, String> extra) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("listen_addresses", "'127.0.0.1'");
        s.put("port", Integer.toString(port));
        s.put("unix_socket_directories", "'" + socketDir + "'");
        s.put("max_connections", Integer.toString(maxConnections));
        s.put("default_transaction_isolation", "'serializable'");
        s.put("fsync", fsync ? "on" : "off");
        s.put("synchronous_commit", fsync ? "on" : "off");
        s.put("full_page_writes", fsync ? "on" : "off");
        s.put("wal_level", "minimal");
        s.put("max_wal_senders", "0");
        s.put("max_wal_size", "8GB");
        s.put("checkpoint_timeout", "30min");
        s.put("shared_buffers", sharedBuffersMb() + "MB");
        s.put("max_pred_locks_per_transaction", "1024");
        s.put("deadlock_timeout", "100ms");
        s.put("max_parallel_workers_per_gather", "0");
        s.put("jit", "off");
        s.put("huge_pages", "off");
        s.put("logging_collector", "off");
        s.put("log_min_messages", "warning");
        extra.forEach((k, v) -> s.put(k, quoteIfNeeded(v)));
        return s;
    }

    private static String quoteIfNeeded(String v) {
        return v.matches("-?[0-9.]+[A-Za-z]*|on|off|true|false") ? v : "'" + v + "'";
    }

    private static long sharedBuffersMb() {
        long total = 4L << 30;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            total = os.getTotalMemorySize();
        }
        return Math.max(128, Math.min(2048, total / 4 / (1 << 20)));
    }

    private void configure(int maxConnections, Map<String, String> extra) throws IOException {
        StringBuilder b = new StringBuilder("\n# tebaldi run: throw-away benchmark server\n");
        settings(port, dir, maxConnections, fsync, extra).forEach((k, v) -> b.append(k).append(" = ").append(v)
                .append('\n'));
        Files.writeString(data.resolve("postgresql.conf"), b.toString(), StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
    }

    private void startServer() throws IOException {
        Path log = dir.resolve("server.log");
        List<String> cmd = List.of(bin.pgCtl().toString(), "-D", data.toString(), "-l", log.toString(), "-w", "-t",
                Long.toString(START_SECONDS), "start");
        Commands.Result r = Commands.run(Commands.asServerUser(cmd, root), START_SECONDS + 30, null);
        if (r.exit() != 0) {
            String serverLog = "";
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                serverLog = String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
            } catch (IOException e) {
                serverLog = "(no server log: " + e.getMessage() + ")";
            }
            throw new IOException("pg_ctl start failed (exit " + r.exit() + "): " + r.tail(5) + "\nserver log:\n"
                    + serverLog);
        }
    }

    /** The last lines of the server log (for error messages), or an empty string. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(dir.resolve("server.log"), StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Stops the server ({@code pg_ctl stop -m immediate}) and deletes the directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        stopQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down; the hook runs (or ran) stopQuietly, which is idempotent
        }
    }

    private synchronized void stopQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        if (Files.exists(data.resolve("postmaster.pid"))) {
            List<String> cmd = List.of(bin.pgCtl().toString(), "-D", data.toString(), "-m", "immediate", "-w", "-t",
                    "60", "stop");
            try {
                Commands.run(Commands.asServerUser(cmd, root), 90, null);
            } catch (IOException e) {
                // best effort: the directory is deleted anyway, and the server exits when it notices
            }
        }
        deleteTree(dir);
    }

    private static void deleteTree(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // a leftover temporary directory is harmless
        }
    }
}
