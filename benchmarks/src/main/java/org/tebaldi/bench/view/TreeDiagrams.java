package org.tebaldi.bench.view;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tebaldi.core.tree.CcTree;

/**
 * Writes a tree's diagram beside a run's other files: {@code <base>.dot} ({@link TreeDot}) always, and
 * {@code <base>.svg} rendered by {@link Graphviz}. A diagram never fails a run: when Graphviz is missing and cannot be
 * installed, only the {@code .dot} is written and the reason is printed once per JVM (a sweep's later points stay
 * quiet; a different reason is printed again); when {@code dot} itself fails, each failure is a warning.
 */
public final class TreeDiagrams {
    /** File name of a run's tree diagram ({@code tree.svg}; the DOT source is {@code tree.dot}). */
    public static final String FILE = "tree.svg";
    private static final java.util.Set<String> TOLD = new java.util.HashSet<>();

    private TreeDiagrams() {
    }

    /**
     * Writes {@code dir/<base>.dot} and, where Graphviz works, {@code dir/<base>.svg}.
     *
     * @param base  file name without extension, e.g. {@code tree} or {@code trees/iteration-2}
     * @param title shown above the tree
     * @param err   where warnings go
     * @return true if the {@code .svg} was written
     * @throws IOException if the {@code .dot} file cannot be written
     */
    public static boolean write(Path dir, String base, CcTree tree, String title, PrintWriter err)
            throws IOException {
        Path dot = dir.resolve(base + ".dot");
        Files.createDirectories(dot.toAbsolutePath().getParent());
        String text = TreeDot.of(tree, title);
        Files.writeString(dot, text, StandardCharsets.UTF_8);
        Path svg = dir.resolve(base + ".svg");
        try {
            Graphviz.render(text, svg);
            return true;
        } catch (Graphviz.Unavailable x) {
            warnOnce(err, "tree diagrams are written as .dot only (no .svg): " + x.getMessage());
        } catch (IOException x) {
            err.println("warning: " + svg + " not written: " + x.getMessage());
            err.flush();
        }
        return false;
    }

    private static synchronized void warnOnce(PrintWriter err, String message) {
        if (TOLD.add(message)) {
            err.println("note: " + message);
            err.flush();
        }
    }
}
