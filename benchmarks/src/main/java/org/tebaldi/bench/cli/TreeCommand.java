package org.tebaldi.bench.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.experiment.SweepPoint;
import org.tebaldi.bench.view.Graphviz;
import org.tebaldi.bench.view.TreeDot;
import org.tebaldi.bench.view.TreeText;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi tree FILE.yaml [--out FILE.svg|.png|.dot]} (docs/experiments.md, "Looking at runs"): prints a CC tree as indented
 * text ({@link TreeText}) and writes its diagram ({@link TreeDot}, rendered by {@link Graphviz}, which installs
 * Graphviz where it is missing). FILE is a tree file ({@code config/trees/*.yaml}, a {@code root:} mapping; its types
 * are not checked against a workload) or an experiment (its tree; each distinct tree when it sweeps trees, the
 * diagrams then numbered {@code NAME-1.svg}, {@code NAME-2.svg}, ...). Without {@code --out} the diagram is
 * {@code <FILE's name>.svg} in the working directory. Exit codes: {@value ExitCodes#CONFIG} for bad input (missing
 * file, neither a tree nor an experiment, a bad tree, an unknown extension), with one message and nothing written;
 * {@value ExitCodes#RUN_FAILED} if the diagram cannot be drawn (Graphviz missing and not installable: the message
 * says why; {@code --out FILE.dot} needs no Graphviz).
 */
@Command(name = "tree", description = "Print a CC tree (a tree file or an experiment's tree) and draw its diagram "
        + "with Graphviz.")
final class TreeCommand implements Callable<Integer> {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE.yaml", description = "a tree file (config/trees/*.yaml) or an "
            + "experiment (config/experiments/*.yaml)")
    Path file;

    @Option(names = "--out", paramLabel = "FILE.svg|.png|.dot", description = "the diagram (default: <FILE's "
            + "name>.svg here); .dot is Graphviz's source and needs no Graphviz")
    Path out;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        Map<String, CcTree> trees;
        Path target;
        try {
            target = target();
            trees = trees(file);
        } catch (ConfigException x) {
            stderr.println(x.getMessage());
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        int i = 0;
        for (Map.Entry<String, CcTree> t : trees.entrySet()) {
            i++;
            Path f = trees.size() == 1 ? target : numbered(target, i);
            stdout.println((trees.size() > 1 ? i + ". " : "") + t.getKey() + ": " + t.getValue().describe());
            stdout.print(TreeText.of(t.getValue()));
            String dot = TreeDot.of(t.getValue(), t.getKey());
            try {
                if (f.getFileName().toString().endsWith(".dot")) {
                    if (f.toAbsolutePath().getParent() != null) {
                        Files.createDirectories(f.toAbsolutePath().getParent());
                    }
                    Files.writeString(f, dot, StandardCharsets.UTF_8);
                } else {
                    Graphviz.render(dot, f);
                }
            } catch (IOException x) {
                stderr.println("cannot write " + f + ": " + x.getMessage());
                stderr.flush();
                return ExitCodes.RUN_FAILED;
            }
            stdout.println("wrote " + f);
        }
        stdout.flush();
        return ExitCodes.OK;
    }

    /** The diagram file: {@code --out} or {@code <name>.svg}; @throws ConfigException for another extension */
    private Path target() {
        if (out == null) {
            return Path.of(file.getFileName().toString().replaceFirst("\\.ya?ml$", "") + ".svg");
        }
        String n = out.getFileName() == null ? "" : out.getFileName().toString();
        if (!(n.endsWith(".svg") || n.endsWith(".png") || n.endsWith(".dot"))) {
            throw new ConfigException("--out", 0, "", "'" + out + "' has no known diagram extension",
                    "end it with .svg, .png or .dot");
        }
        if (Files.isDirectory(out)) {
            throw new ConfigException("--out", 0, "", "'" + out + "' is a directory", "name a file, e.g. tree.svg");
        }
        return out;
    }

    private static Path numbered(Path f, int i) {
        String n = f.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return f.resolveSibling(n.substring(0, dot) + "-" + i + n.substring(dot));
    }

    /**
     * The trees of {@code file} by label (the file for a tree file; the experiment, and the swept values when
     * several points have different trees).
     *
     * @throws ConfigException if the file is missing, unreadable, not YAML, neither a tree nor an experiment, or bad
     */
    static Map<String, CcTree> trees(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(file.toString(), 0, "", Files.isDirectory(file) ? "is a directory"
                    : "no such file", "name a tree file (config/trees/*.yaml) or an experiment "
                    + "(config/experiments/*.yaml); relative paths start at " + Path.of("").toAbsolutePath());
        }
        JsonNode root;
        try {
            root = YAML.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException x) {
            int line = x.getLocation() == null ? 0 : x.getLocation().getLineNr();
            throw new ConfigException(file.toString(), line, "", "not valid YAML (" + x.getOriginalMessage() + ")",
                    "fix the YAML syntax");
        } catch (IOException x) {
            throw new ConfigException(file.toString(), 0, "", "cannot read the file (" + x.getMessage() + ")",
                    "check that it is readable UTF-8 text");
        }
        Map<String, CcTree> trees = new LinkedHashMap<>();
        if (root != null && root.isObject() && root.has("root")) {
            trees.put(file.toString(), TreeLoader.load(file, TreeContext.of(null)));
            return trees;
        }
        if (root == null || !root.isObject() || !root.has("workload")) {
            throw new ConfigException(file.toString(), 0, "", "neither a CC tree (a 'root:' mapping) nor an "
                    + "experiment (with a 'workload:' field)", "name a tree file (config/trees/*.yaml) or an "
                    + "experiment (config/experiments/*.yaml)");
        }
        List<SweepPoint> points = ExperimentLoader.loadSweep(List.of(file), List.of(), Path.of("")
                .toAbsolutePath()).points();
        Map<String, String> seen = new LinkedHashMap<>();
        for (SweepPoint p : points) {
            Experiment e = p.experiment();
            if (e.tree() == null) {
                continue;
            }
            CcTree t = e.tree().tree();
            if (seen.putIfAbsent(t.canonical(), "") == null) {
                String label = e.name() + " (" + (e.treeRef().file() != null ? e.treeRef().file().getFileName()
                        : "inline tree") + ")";
                trees.put(points.size() > 1 ? label + " " + p.describe() : label, t);
            }
        }
        if (trees.isEmpty()) {
            throw new ConfigException(file.toString(), 0, "tree", "the experiment has no CC tree (PostgreSQL "
                    + "target without a tree)", "name a tree file or an experiment that runs on Tebaldi");
        }
        return new LinkedHashMap<>(trees);
    }
}
