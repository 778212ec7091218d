package org.tebaldi.bench.postgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Installs the PostgreSQL server when a local throw-away server is needed and no binaries are found, by running
 * {@code scripts/install-postgresql} of the Tebaldi-J checkout (found through the {@code tebaldi.home} system
 * property that {@code scripts/tebaldi} sets, else relative to the working directory). The script installs the
 * Debian package {@code postgresql} with apt-get.
 */
final class PgInstaller {
    /** The install script, relative to the repository root. */
    static final String SCRIPT = "scripts/install-postgresql";
    private static final long TIMEOUT_SECONDS = 15 * 60;

    private PgInstaller() {
    }

    /** The install script, or null if it cannot be found. */
    static Path script() {
        String home = System.getProperty("tebaldi.home");
        Path p = home != null ? Path.of(home).resolve(SCRIPT) : Path.of(SCRIPT).toAbsolutePath();
        return Files.isRegularFile(p) ? p : null;
    }

    /**
     * Runs the install script, passing each output line to {@code lines}.
     *
     * @throws IOException if there is no script or it failed (the message has its last lines)
     */
    static void install(Consumer<String> lines) throws IOException {
        install(script(), lines);
    }

    /** As {@link #install(Consumer)}, with the script given (null: not found). */
    static void install(Path s, Consumer<String> lines) throws IOException {
        if (s == null) {
            throw new IOException("the PostgreSQL server is not installed and " + SCRIPT + " was not found; install "
                    + "it (Debian: apt-get install postgresql), or set postgresql.binDir or postgresql.url");
        }
        Commands.Result r = Commands.run(List.of("bash", s.toString()), TIMEOUT_SECONDS, lines);
        if (r.exit() != 0) {
            throw new IOException(SCRIPT + " failed (exit " + r.exit() + "):\n" + r.tail(15));
        }
    }
}
