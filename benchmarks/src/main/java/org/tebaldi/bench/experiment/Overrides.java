package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.tebaldi.bench.config.LocatedYaml;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.core.config.ConfigException;

/**
 * Applies {@code --set key=value} overrides to an experiment document, in order (docs/experiments.md, "Running the default experiment"): the key is a dotted
 * path ({@code clients}, {@code cluster.networkDelay}, {@code workload.warehouses}, {@code tree}, or a path inside
 * an inline tree), the value is parsed as YAML ({@code 64} a number, {@code 10s} text, {@code true} a boolean).
 * Paths are checked against the schema: top-level keys and the keys of {@code cluster} and {@code retry} must be
 * known; {@code workload.*} keys are checked by the workload; {@code tree.*} needs an inline tree;
 * {@code treeOptions.<mechanism>.<option>} and {@code retry.byMechanism.<mechanism>} are checked when read. Each
 * override is recorded in the {@link Locator} so later errors about its value name the override.
 */
final class Overrides {
    private Overrides() {
    }

    /**
     * @param sets overrides as given on the command line
     * @throws ConfigException for a malformed override or an unknown path, naming the override
     */
    static void apply(ObjectNode root, List<String> sets, Locator loc) {
        for (String s : sets) {
            apply(root, s, loc);
        }
    }

    private static void apply(ObjectNode root, String s, Locator loc) {
        String source = "--set " + s;
        int eq = s.indexOf('=');
        if (eq <= 0) {
            throw new ConfigException(source, 0, "", "expected key=value", "write e.g. --set clients=64");
        }
        String key = s.substring(0, eq).trim();
        String text = s.substring(eq + 1);
        String[] path = key.split("\\.", -1);
        for (String p : path) {
            if (p.isEmpty()) {
                throw new ConfigException(source, 0, key, "'" + key + "' is not a dotted path",
                        "write e.g. --set cluster.networkDelay=50us");
            }
        }
        if (text.isBlank()) {
            throw new ConfigException(source, 0, key, "no value after '='", "write e.g. --set " + key + "=<value>");
        }
        checkPath(root, path, key, source);
        JsonNode value = LocatedYaml.parseValue(text, source);
        ObjectNode parent = root;
        for (int i = 0; i < path.length - 1; i++) {
            JsonNode child = parent.get(path[i]);
            if (child == null) {
                child = parent.putObject(path[i]);
            } else if (!child.isObject()) {
                String at = String.join(".", List.of(path).subList(0, i + 1));
                throw new ConfigException(source, 0, key, "'" + at + "' is a single value, not a section",
                        "set it as a whole: --set " + at + "=<value>");
            }
            parent = (ObjectNode) child;
        }
        parent.set(path[path.length - 1], value);
        loc.markOverride(key, s);
    }

    /** {@code cluster.simulation.<key>} and {@code cluster.simulation.latency.{min,max}}. */
    private static void checkSimulation(String[] path, String key, String source) {
        List<String> known = path.length == 3 ? ExperimentSchema.SIMULATION
                : path.length == 4 && path[2].equals("latency") ? ExperimentSchema.LATENCY : null;
        if (known == null) {
            throw new ConfigException(source, 0, key, "'" + key + "' is not a simulation key",
                    "use cluster.simulation.<" + String.join("|", ExperimentSchema.SIMULATION)
                            + "> or cluster.simulation.latency.<min|max>");
        }
        String last = path[path.length - 1];
        if (!known.contains(last)) {
            throw new ConfigException(source, 0, key, ExperimentSchema.unknownKeyProblem(last, known),
                    "use one of " + String.join(", ", known));
        }
    }

    private static void checkPath(ObjectNode root, String[] path, String key, String source) {
        String first = path[0];
        if (!ExperimentSchema.TOP.contains(first)) {
            throw new ConfigException(source, 0, first, ExperimentSchema.unknownKeyProblem(first, ExperimentSchema.TOP),
                    "use one of " + String.join(", ", ExperimentSchema.TOP));
        }
        if (path.length == 1) {
            return;
        }
        List<String> known = ExperimentSchema.keysOf(first);
        if (first.equals("cluster") && path.length == 3 && path[1].equals("replication")) {
            if (!ExperimentSchema.REPLICATION.contains(path[2])) {
                throw new ConfigException(source, 0, key, ExperimentSchema.unknownKeyProblem(path[2],
                        ExperimentSchema.REPLICATION), "use one of " + String.join(", ", ExperimentSchema.REPLICATION));
            }
            return;
        }
        if (first.equals("cluster") && path.length > 2 && path[1].equals("simulation")) {
            checkSimulation(path, key, source);
            return;
        }
        if (first.equals("retry") && path.length > 1 && path[1].equals("byMechanism")) {
            if (path.length > 3) {
                throw new ConfigException(source, 0, key, "a mechanism's back-off is a single value",
                        "write --set retry.byMechanism." + path[2] + "=5ms");
            }
            return;
        }
        if (known != null) {
            if (path.length > 2) {
                throw new ConfigException(source, 0, key, "'" + first + "." + path[1] + "' is a single value, not a "
                        + "section", "write --set " + first + "." + path[1] + "=<value>");
            }
            if (!known.contains(path[1])) {
                throw new ConfigException(source, 0, key, ExperimentSchema.unknownKeyProblem(path[1], known),
                        "use one of " + String.join(", ", known));
            }
            return;
        }
        switch (first) {
            case "workload" -> {
                if (path.length > 2) {
                    throw new ConfigException(source, 0, key, "workload options are single values",
                            "write --set workload." + path[1] + "=<value>");
                }
            }
            case "treeOptions" -> {
                if (path.length > 3) {
                    throw new ConfigException(source, 0, key, "tree options are single values",
                            "write --set treeOptions." + path[1] + "." + path[2] + "=<value>");
                }
            }
            case "tree" -> {
                if (root.get("tree") == null || !root.get("tree").isObject()) {
                    throw new ConfigException(source, 0, key, "the tree is not written inline, so '" + key
                            + "' does not exist", "replace the whole tree: --set tree=<file>");
                }
            }
            default -> throw new ConfigException(source, 0, key, "'" + first + "' is a single value, not a section",
                    "write --set " + first + "=<value>");
        }
    }
}
