package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.tebaldi.bench.config.LocatedYaml;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.config.ConfigException;

/**
 * Loads an experiment file (DESIGN.md §9): reads the YAML (Jackson, with line numbers), applies the
 * {@code --set} overrides, then validates every key and builds the workload and the tree. Every problem is ONE
 * {@link ConfigException} naming the file (or override), line, place and fix; nothing is run or written.
 *
 * <pre>
 * name: tpcc-2pl
 * workload: {name: tpcc, warehouses: 10}
 * tree: ../trees/2pl.yaml          # relative to this file, or an inline tree mapping
 * cluster: {mode: embedded, dataServers: 2, coordinators: 2, networkDelay: 50us, threads: 0}
 * clients: 50
 * warmup: 5s
 * duration: 30s
 * verify: true
 * retry: {backoff: 1ms, maxBackoff: 50ms}
 * seed: 1
 * output: results
 * </pre>
 */
public final class ExperimentLoader {
    private ExperimentLoader() {
    }

    /**
     * @param file the experiment file, as the user named it (used in messages)
     * @param sets {@code key=value} overrides, applied in order
     * @param cwd  the working directory, against which {@code --set tree=<path>} resolves
     * @throws ConfigException for the first problem
     */
    public static Experiment load(Path file, List<String> sets, Path cwd) {
        String source = file.toString();
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(source, 0, "", "no such experiment file", "check the path (relative paths start "
                    + "at " + cwd.toAbsolutePath().normalize() + ")");
        } catch (IOException e) {
            throw new ConfigException(source, 0, "", "cannot read the experiment file (" + e.getMessage() + ")",
                    "check that it is a readable UTF-8 text file");
        }
        return parse(text, file, sets, cwd);
    }

    /**
     * Like {@link #load} for text already read.
     *
     * @param file the file the text came from (messages; its folder resolves a relative tree path)
     * @throws ConfigException for the first problem
     */
    public static Experiment parse(String text, Path file, List<String> sets, Path cwd) {
        LocatedYaml.Document doc = LocatedYaml.parse(text, file.toString());
        JsonNode root = doc.root();
        if (root == null || root.isNull()) {
            throw new ConfigException(file.toString(), 0, "", "the experiment file is empty",
                    "write at least name, workload, tree, clients and duration");
        }
        if (!root.isObject()) {
            throw new ConfigException(file.toString(), 0, "", "an experiment must be a "
                    + "mapping of keys such as name, workload, tree; found " + Values.describe(root),
                    "write one 'key: value' per line");
        }
        Locator loc = new Locator(file.toString(), doc.lines());
        Overrides.apply((ObjectNode) root, sets, loc);
        return ExperimentReader.read((ObjectNode) root, loc, file, cwd);
    }
}
