package org.tebaldi.bench.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the external commands of a local PostgreSQL server (initdb, pg_ctl, the install script) and collects their
 * output. PostgreSQL refuses to run as root, so when this JVM runs as root every server command runs as the
 * unprivileged user {@code postgres} (created by the Debian package) through {@code runuser}, or {@code su} where
 * {@code runuser} is missing.
 */
final class Commands {
    /** The unprivileged user the server runs as when this JVM runs as root. */
    static final String SERVER_USER = "postgres";

    /** A finished command: exit code and its merged stdout/stderr lines. */
    record Result(int exit, List<String> output) {
        String tail(int lines) {
            return String.join("\n", output.subList(Math.max(0, output.size() - lines), output.size()));
        }
    }

    private Commands() {
    }

    /** True if this JVM runs as root (uid 0). */
    static boolean root() {
        try {
            Result r = run(List.of("id", "-u"), 10, null);
            return r.exit() == 0 && !r.output().isEmpty() && r.output().get(0).trim().equals("0");
        } catch (IOException e) {
            return false;
        }
    }

    /** True if the local user {@code user} exists. */
    static boolean userExists(String user) {
        try {
            return run(List.of("id", "-u", user), 10, null).exit() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code cmd} as run by the server user: itself when not root, else wrapped in runuser (or su). */
    static List<String> asServerUser(List<String> cmd, boolean root) {
        if (!root) {
            return cmd;
        }
        if (onPath("runuser")) {
            List<String> out = new ArrayList<>(List.of("runuser", "-u", SERVER_USER, "--"));
            out.addAll(cmd);
            return out;
        }
        StringBuilder sh = new StringBuilder("exec");
        for (String c : cmd) {
            sh.append(" '").append(c.replace("'", "'\\''")).append('\'');
        }
        return List.of("su", "-s", "/bin/sh", SERVER_USER, "-c", sh.toString());
    }

    /** True if an executable named {@code name} is on the PATH. */
    static boolean onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(java.io.File.pathSeparator)) {
            if (!d.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(d, name))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs {@code cmd}, waiting at most {@code timeoutSeconds}.
     *
     * @param lines receives each output line as it comes (may be null)
     * @throws IOException if the command cannot be started or does not finish in time (it is then killed)
     */
    static Result run(List<String> cmd, long timeoutSeconds, Consumer<String> lines) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        p.getOutputStream().close();
        List<String> out = new ArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    synchronized (out) {
                        out.add(l);
                    }
                    if (lines != null) {
                        lines.accept(l);
                    }
                }
            } catch (IOException e) {
                // the process ended; nothing more to read
            }
        }, "tebaldi-pg-cmd-output");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("'" + String.join(" ", cmd) + "' did not finish within " + timeoutSeconds
                        + " s");
            }
            reader.join(5_000);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running '" + String.join(" ", cmd) + "'", e);
        }
        synchronized (out) {
            return new Result(p.exitValue(), List.copyOf(out));
        }
    }
}
