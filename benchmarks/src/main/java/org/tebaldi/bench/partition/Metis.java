package org.tebaldi.bench.partition;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs METIS's {@code gpmetis} (Karypis and Kumar; the Debian package {@code metis}) on a {@link StarGraph} as a
 * subprocess, installing it first with {@code scripts/install-metis} when it is not on the PATH. Never called
 * from an actor: partitioning runs offline, in {@code tebaldi partition} or a test.
 */
public final class Metis {
    /** The install script, relative to the repository root. */
    public static final String SCRIPT = "scripts/install-metis";
    private static final long TIMEOUT_SECONDS = 10 * 60;

    private Metis() {
    }

    /** Whether {@code gpmetis} is on the PATH. */
    public static boolean available() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "gpmetis"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Makes sure {@code gpmetis} is there, running the install script if it is not (found through the {@code
     * tebaldi.home} system property that {@code scripts/tebaldi} sets, else in the working directory or its parent).
     *
     * @throws IOException with the script's last lines if it cannot be installed
     */
    public static void ensureInstalled() throws IOException, InterruptedException {
        if (available()) {
            return;
        }
        String home = System.getProperty("tebaldi.home");
        Path script = home != null ? Path.of(home).resolve(SCRIPT) : Path.of(SCRIPT).toAbsolutePath();
        if (home == null && !Files.isRegularFile(script)) {
            script = Path.of("..").resolve(SCRIPT).toAbsolutePath().normalize(); // a module's tests run in its folder
        }
        if (!Files.isRegularFile(script)) {
            throw new IOException("METIS (gpmetis) is not installed and " + SCRIPT + " was not found; install it "
                    + "(Debian: apt-get install metis)");
        }
        Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0 || !available()) {
            throw new IOException(SCRIPT + " could not install METIS:\n" + tail(out, 10));
        }
    }

    /**
     * Partitions {@code g} into {@code parts} (&ge; 2) with load imbalance at most {@code ufactor}/1000 (METIS's
     * {@code -ufactor}, default 30 = 3 %).
     *
     * @return the part of every vertex (records first, then transactions)
     * @throws IOException if gpmetis cannot be installed or fails
     */
    public static int[] partition(StarGraph g, int parts, int ufactor) throws IOException, InterruptedException {
        ensureInstalled();
        Path dir = Files.createTempDirectory("tebaldi-metis");
        try {
            Path graph = dir.resolve("graph");
            try (Writer w = Files.newBufferedWriter(graph)) {
                g.writeMetis(w);
            }
            Process p = new ProcessBuilder("gpmetis", "-ufactor=" + ufactor, "-seed=1", graph.toString(),
                    String.valueOf(parts)).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("gpmetis failed:\n" + tail(out, 10));
            }
            List<String> lines = Files.readAllLines(dir.resolve("graph.part." + parts));
            int n = g.records() + g.transactions();
            if (lines.size() != n) {
                throw new IOException("gpmetis wrote " + lines.size() + " parts for " + n + " vertices");
            }
            int[] part = new int[n];
            for (int i = 0; i < n; i++) {
                part[i] = Integer.parseInt(lines.get(i).trim());
            }
            return part;
        } finally {
            try (var s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static String tail(String s, int n) {
        List<String> l = new ArrayList<>(List.of(s.split("\n")));
        return String.join("\n", l.subList(Math.max(0, l.size() - n), l.size()));
    }
}
