package org.tebaldi.bench.postgres;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The PostgreSQL server binaries ({@code initdb}, {@code pg_ctl}, {@code postgres}) of one installation.
 *
 * @param dir     the directory holding them
 * @param version the output of {@code postgres --version}, e.g. {@code postgres (PostgreSQL) 15.18 (Debian ...)}
 */
public record PgBinaries(Path dir, String version) {
    private static final List<String> NEEDED = List.of("initdb", "pg_ctl", "postgres");

    /** {@code initdb}. */
    public Path initdb() {
        return dir.resolve("initdb");
    }

    /** {@code pg_ctl}. */
    public Path pgCtl() {
        return dir.resolve("pg_ctl");
    }

    /**
     * The binaries in {@code binDir}, or, when it is null, the newest found in {@code /usr/lib/postgresql/<version>/bin}
     * (Debian, Ubuntu), {@code /usr/pgsql-<version>/bin} (RPM packages) or on the PATH.
     *
     * @return null if {@code binDir} is null and none were found
     * @throws IllegalArgumentException if {@code binDir} is given but lacks initdb, pg_ctl or postgres
     */
    public static PgBinaries find(String binDir) {
        if (binDir != null) {
            Path d = Path.of(binDir);
            if (!complete(d)) {
                throw new IllegalArgumentException("postgresql.binDir '" + binDir + "' does not hold initdb, pg_ctl "
                        + "and postgres");
            }
            return of(d);
        }
        for (Path d : candidates()) {
            if (complete(d)) {
                return of(d);
            }
        }
        return null;
    }

    private static List<Path> candidates() {
        List<Path> out = new ArrayList<>();
        out.addAll(versioned(Path.of("/usr/lib/postgresql"), "", "bin"));
        out.addAll(versioned(Path.of("/usr"), "pgsql-", "bin"));
        String path = System.getenv("PATH");
        if (path != null) {
            for (String p : path.split(java.io.File.pathSeparator)) {
                Path initdb = Path.of(p.isEmpty() ? "." : p, "initdb");
                if (Files.isExecutable(initdb)) {
                    try {
                        out.add(initdb.toRealPath().getParent());
                    } catch (IOException e) {
                        out.add(initdb.getParent());
                    }
                }
            }
        }
        return out;
    }

    /** {@code base/<prefix><version>/<sub>} directories, newest (numerically largest) version first. */
    private static List<Path> versioned(Path base, String prefix, String sub) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(base)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(base, prefix + "[0-9]*")) {
            ds.forEach(out::add);
        } catch (IOException e) {
            return out;
        }
        out.sort(Comparator.comparingDouble((Path p) -> versionOf(p.getFileName().toString().substring(
                prefix.length()))).reversed());
        return out.stream().map(p -> p.resolve(sub)).toList();
    }

    private static double versionOf(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean complete(Path d) {
        return NEEDED.stream().allMatch(n -> Files.isExecutable(d.resolve(n)));
    }

    private static PgBinaries of(Path d) {
        String version = "PostgreSQL (version unknown)";
        try {
            Commands.Result r = Commands.run(List.of(d.resolve("postgres").toString(), "--version"), 30, null);
            if (r.exit() == 0 && !r.output().isEmpty()) {
                version = r.output().get(0).trim();
            }
        } catch (IOException e) {
            // keep "version unknown"; initdb will report a broken installation
        }
        return new PgBinaries(d, version);
    }
}
