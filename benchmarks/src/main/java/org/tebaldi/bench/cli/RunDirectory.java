package org.tebaldi.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The default run directory {@code <output>/<name>-<yyyyMMdd-HHmmss>/} (docs/experiments.md, "Running the default experiment"). A relative {@code output}
 * is resolved against the repository root, which {@code scripts/tebaldi} passes as the system property
 * {@value #HOME_PROPERTY}, else against the working directory. A name already taken gets {@code -2}, {@code -3}, ...
 */
final class RunDirectory {
    /** System property naming the repository root. */
    static final String HOME_PROPERTY = "tebaldi.home";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunDirectory() {
    }

    /** The directory for a run of experiment {@code name} started at {@code time}; not created. */
    static Path of(String output, String name, LocalDateTime time, Path cwd) {
        String home = System.getProperty(HOME_PROPERTY);
        Path base = Path.of(output);
        if (!base.isAbsolute()) {
            base = (home != null && !home.isBlank() ? Path.of(home) : cwd).resolve(base);
        }
        Path dir = base.resolve(name + "-" + STAMP.format(time)).normalize();
        Path candidate = dir;
        for (int i = 2; Files.exists(candidate); i++) {
            candidate = dir.resolveSibling(dir.getFileName() + "-" + i);
        }
        return candidate;
    }

    /**
     * Checks an {@code --out} option: absent, or a directory, or not there yet.
     *
     * @throws org.tebaldi.core.config.ConfigException if it names a file
     */
    static void checkOut(Path out) {
        if (out != null && Files.exists(out) && !Files.isDirectory(out)) {
            throw new org.tebaldi.core.config.ConfigException("--out", 0, "", "'" + out + "' is a file, not a "
                    + "directory", "name a directory (it is created if missing)");
        }
    }
}
