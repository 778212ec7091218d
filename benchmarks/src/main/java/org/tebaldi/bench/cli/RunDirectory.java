package org.tebaldi.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The default run directory {@code <output>/<name>-<yyyyMMdd-HHmmss>/} (docs/experiments.md, "Running the default experiment"). A relative {@code output}
 * is resolved against the repository root, which {@code scripts/tebaldi} passes as the system property
 * {@value #HOME_PROPERTY}, else against the working directory. A name already taken gets {@code -2}, {@code -3}, ...;
 * the directory is claimed by creating it.
 */
final class RunDirectory {
    /** System property naming the repository root. */
    static final String HOME_PROPERTY = "tebaldi.home";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunDirectory() {
    }

    /**
     * The directory for a run of experiment {@code name} started at {@code time}, created empty here: two runs started
     * in the same second (e.g. in parallel) each claim their own — the first free of the stamp, {@code -2}, {@code -3},
     * ... — instead of both picking the one that does not exist yet and overwriting each other's results.
     *
     * @throws IllegalStateException if the directory cannot be created (e.g. no permission)
     */
    static Path of(String output, String name, LocalDateTime time, Path cwd) {
        String home = System.getProperty(HOME_PROPERTY);
        Path base = Path.of(output);
        if (!base.isAbsolute()) {
            base = (home != null && !home.isBlank() ? Path.of(home) : cwd).resolve(base);
        }
        Path dir = base.resolve(name + "-" + STAMP.format(time)).normalize();
        try {
            Files.createDirectories(base.normalize());
            for (int i = 1; ; i++) {
                Path candidate = i == 1 ? dir : dir.resolveSibling(dir.getFileName() + "-" + i);
                try {
                    return Files.createDirectory(candidate);
                } catch (java.nio.file.FileAlreadyExistsException taken) {
                    // claimed by another run (or an earlier one): the next suffix
                }
            }
        } catch (java.io.IOException x) {
            throw new IllegalStateException("cannot create the run directory " + dir + ": " + x.getMessage()
                    + " (pass --out DIR with a writable directory)", x);
        }
    }

    /** Removes a run directory {@link #of} claimed if nothing was written into it (a run that did not start). */
    static void releaseIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (java.io.IOException notEmpty) {
            // something was written: it stays
        }
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
