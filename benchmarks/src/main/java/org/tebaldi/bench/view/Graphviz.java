package org.tebaldi.bench.view;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Renders DOT text with Graphviz's {@code dot} program (Debian package {@code graphviz}). Where {@code dot} is not on
 * the PATH, the first call runs {@code scripts/install-graphviz} (found under the repository root, the system
 * property {@value #HOME_PROPERTY} that {@code scripts/tebaldi} sets, else the working directory or its parents)
 * once per JVM; if that fails, every call throws {@link Unavailable} with the script's reason. The system property
 * {@value #DOT_PROPERTY} names a {@code dot} program to use instead (no search, no installation).
 */
public final class Graphviz {
    /** System property naming the repository root (set by {@code scripts/tebaldi}). */
    static final String HOME_PROPERTY = "tebaldi.home";
    /** System property naming the {@code dot} program to use (e.g. {@code /opt/graphviz/bin/dot}). */
    public static final String DOT_PROPERTY = "tebaldi.dot";
    /** Longest a render may take, seconds. */
    private static final long RENDER_SECONDS = 60;
    /** Longest the install script may take, seconds. */
    private static final long INSTALL_SECONDS = 600;

    private static String dot;
    private static String unavailable;

    /** Graphviz cannot be found or installed; the message says why and what to do. */
    public static final class Unavailable extends IOException {
        Unavailable(String message) {
            super(message);
        }
    }

    private Graphviz() {
    }

    /**
     * The {@code dot} program, installing Graphviz first if it is missing.
     *
     * @throws Unavailable if it is missing and cannot be installed (the reason, once found, is kept for the JVM)
     */
    public static synchronized String dot() throws Unavailable {
        String given = System.getProperty(DOT_PROPERTY);
        if (given != null && !given.isBlank()) {
            if (!Files.isRegularFile(Path.of(given)) || !Files.isExecutable(Path.of(given))) {
                throw new Unavailable("-D" + DOT_PROPERTY + "=" + given + " is not an executable file; name "
                        + "Graphviz's dot program, or leave the property out to find (or install) it");
            }
            return given;
        }
        if (dot != null) {
            return dot;
        }
        if (unavailable != null) {
            throw new Unavailable(unavailable);
        }
        String found = onPath();
        if (found == null) {
            found = install();
        }
        dot = found;
        return dot;
    }

    /**
     * Renders {@code dotText} into {@code out}; the format is the file's extension ({@code .svg} or {@code .png}).
     *
     * @throws Unavailable if Graphviz is missing and cannot be installed
     * @throws IOException if {@code dot} fails (its error output is the message) or the file cannot be written
     * @throws IllegalArgumentException for another extension
     */
    public static void render(String dotText, Path out) throws IOException {
        String name = out.getFileName().toString();
        String format = name.endsWith(".svg") ? "svg" : name.endsWith(".png") ? "png" : null;
        if (format == null) {
            throw new IllegalArgumentException("cannot render '" + name + "': Graphviz output is .svg or .png");
        }
        String exe = dot();
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path err = Files.createTempFile("tebaldi-dot-", ".err");
        try {
            Process p = new ProcessBuilder(exe, "-T" + format, "-o", out.toString())
                    .redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().write(dotText.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            if (!p.waitFor(RENDER_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("dot did not finish within " + RENDER_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new IOException("dot failed (exit " + p.exitValue() + "): "
                        + Files.readString(err, StandardCharsets.UTF_8).strip());
            }
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while dot ran", x);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /** SVG text of {@code dotText} (rendered through a temporary file). @throws IOException as {@link #render} */
    public static String svg(String dotText) throws IOException {
        Path tmp = Files.createTempFile("tebaldi-tree-", ".svg");
        try {
            render(dotText, tmp);
            return Files.readString(tmp, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String onPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(java.io.File.pathSeparator)) {
            Path f = Path.of(d.isEmpty() ? "." : d, "dot");
            if (Files.isRegularFile(f) && Files.isExecutable(f)) {
                return f.toString();
            }
        }
        return null;
    }

    private static String install() throws Unavailable {
        Path script = script();
        if (script == null) {
            return fail("Graphviz's dot is not on the PATH and scripts/install-graphviz was not found; install the "
                    + "package 'graphviz' (apt-get install graphviz)");
        }
        try {
            Path log = Files.createTempFile("tebaldi-install-graphviz-", ".log");
            Process p = new ProcessBuilder(List.of(script.toString())).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            boolean done = p.waitFor(INSTALL_SECONDS, TimeUnit.SECONDS);
            String out = Files.readString(log, StandardCharsets.UTF_8).strip();
            Files.deleteIfExists(log);
            if (!done) {
                p.destroyForcibly();
                return fail(script + " did not finish within " + INSTALL_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                String last = out.isEmpty() ? "exit " + p.exitValue() : out.substring(out.lastIndexOf('\n') + 1);
                return fail("Graphviz's dot is not installed and " + script + " could not install it: " + last);
            }
        } catch (IOException x) {
            return fail("cannot run " + script + ": " + x.getMessage());
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted while installing Graphviz");
        }
        String found = onPath();
        return found != null ? found : fail(script + " finished but dot is still not on the PATH");
    }

    private static String fail(String why) throws Unavailable {
        unavailable = why;
        throw new Unavailable(why);
    }

    /** scripts/install-graphviz under the repository root, or null. */
    private static Path script() {
        String home = System.getProperty(HOME_PROPERTY);
        if (home != null && !home.isBlank()) {
            Path s = Path.of(home, "scripts", "install-graphviz");
            if (Files.isExecutable(s)) {
                return s;
            }
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("scripts").resolve("install-graphviz");
            if (Files.isExecutable(s)) {
                return s;
            }
        }
        return null;
    }
}
