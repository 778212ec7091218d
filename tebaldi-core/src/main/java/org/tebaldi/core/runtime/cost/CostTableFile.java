package org.tebaldi.core.runtime.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.config.ConfigException;

/**
 * A {@link CostTable}'s file, {@code config/costs/<name>.yaml} (docs/simulation.md, "Cost model"): its YAML form,
 * read and written. Every bad value names the file and its place and says to calibrate again.
 */
final class CostTableFile {
    private static final YAMLMapper YAML = new YAMLMapper();

    private CostTableFile() {
    }

    /**
     * Reads a table.
     *
     * @throws ConfigException naming the file and the place if it cannot be read or a value is missing or negative,
     *                         or {@code calibration.host} is a mapping with a bad field ({@link HostIdentity#fromCalibration})
     */
    static CostTable read(Path file) {
        String f = file.toString();
        JsonNode root;
        try {
            root = YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new ConfigException(f, 0, "", "cannot read the cost table: " + e.getMessage(),
                    "run scripts/tebaldi calibrate --out " + f);
        }
        if (root == null || !root.isObject()) {
            throw new ConfigException(f, 0, "", "expected a mapping (a cost table)",
                    "run scripts/tebaldi calibrate --out " + f);
        }
        Map<String, Object> calibration = new LinkedHashMap<>();
        JsonNode cal = root.get("calibration");
        if (cal != null && cal.isObject()) {
            calibration.putAll(YAML.convertValue(cal, Map.class));
        }
        HostIdentity.fromCalibration(f, calibration); // a bad host entry fails here, naming the file
        Map<String, Integer> bytes = new TreeMap<>();
        JsonNode b = root.get("bytes");
        if (b != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = b.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                bytes.put(e.getKey(), (int) nonNegative(f, "bytes." + e.getKey(), e.getValue()));
            }
        }
        JsonNode h = root.get("handlers");
        if (h == null || !h.isObject() || h.isEmpty()) {
            throw new ConfigException(f, 0, "handlers", "no handler costs", "run scripts/tebaldi calibrate --out " + f);
        }
        Map<String, HandlerCost> handlers = handlers(f, "handlers", h);
        Map<String, Map<String, HandlerCost>> workloads = new TreeMap<>();
        JsonNode w = root.get("workloads");
        if (w != null && w.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = w.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                workloads.put(e.getKey(), handlers(f, "workloads." + e.getKey(), e.getValue()));
            }
        }
        String name = root.path("name").asText(file.getFileName().toString().replaceFirst("\\.ya?ml$", ""));
        Map<String, Double> overheads = numbers(f, root, "overheads", CostTableFile::atLeastOne);
        return new CostTable(name, calibration, atLeastOne(f, "overhead", root.get("overhead")), overheads,
                root.has("wakeMicros") ? nonNegative(f, "wakeMicros", root.get("wakeMicros")) : 0,
                root.has("lateMicros") ? nonNegative(f, "lateMicros", root.get("lateMicros")) : 0,
                numbers(f, root, "lates", CostTableFile::nonNegative),
                root.has("defaultBytes") ? (int) nonNegative(f, "defaultBytes", root.get("defaultBytes")) : 128,
                bytes, handlers, workloads, logStore(f, root.get("logStore")), trees(f, root.get("trees")));
    }

    private static List<TreeCosts> trees(String f, JsonNode t) {
        if (t == null || t.isNull()) {
            return List.of();
        }
        if (!t.isArray()) {
            throw new ConfigException(f, 0, "trees", "expected a list of sections by tree",
                    "run scripts/tebaldi calibrate again");
        }
        List<TreeCosts> out = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            JsonNode s = t.get(i);
            String at = "trees[" + i + "]";
            List<String> experiments = new ArrayList<>();
            s.path("experiments").forEach(x -> experiments.add(x.asText()));
            for (String field : List.of("workload", "tree", "shape")) {
                if (!s.path(field).isTextual()) {
                    throw new ConfigException(f, 0, at + "." + field, "expected a string",
                            "run scripts/tebaldi calibrate again");
                }
            }
            if (experiments.isEmpty()) {
                throw new ConfigException(f, 0, at + ".experiments", "expected the runs it was fitted from",
                        "run scripts/tebaldi calibrate again");
            }
            JsonNode h = s.get("handlers");
            out.add(new TreeCosts(s.get("workload").asText(), s.get("tree").asText(), s.get("shape").asText(),
                    experiments, atLeastOne(f, at + ".overhead", s.get("overhead")),
                    nonNegative(f, at + ".lateMicros", s.get("lateMicros")),
                    h == null || !h.isObject() ? Map.of() : handlers(f, at + ".handlers", h)));
        }
        return out;
    }

    private static LogStoreCosts logStore(String f, JsonNode l) {
        if (l == null || l.isNull()) {
            return null;
        }
        if (!l.isObject()) {
            throw new ConfigException(f, 0, "logStore", "expected a mapping",
                    "run scripts/tebaldi calibrate-durability");
        }
        Map<String, Object> cal = new LinkedHashMap<>();
        if (l.get("calibration") != null && l.get("calibration").isObject()) {
            cal.putAll(YAML.convertValue(l.get("calibration"), Map.class));
        }
        JsonNode h = l.get("handlers");
        return new LogStoreCosts(nonNegative(f, "logStore.groupMicros", l.get("groupMicros")),
                nonNegative(f, "logStore.perRecordMicros", l.get("perRecordMicros")),
                nonNegative(f, "logStore.syncMicros", l.get("syncMicros")),
                h == null || !h.isObject() ? Map.of() : handlers(f, "logStore.handlers", h), cal);
    }

    /** A checked number of a file's place, or a {@link ConfigException} naming both. */
    private interface Check {
        double apply(String file, String place, JsonNode value);
    }

    /** The mapping {@code field} of {@code root}, each value checked; empty if absent. */
    private static Map<String, Double> numbers(String f, JsonNode root, String field, Check check) {
        Map<String, Double> out = new TreeMap<>();
        JsonNode n = root.get(field);
        if (n != null && n.isObject()) {
            n.fields().forEachRemaining(e -> out.put(e.getKey(), check.apply(f, field + "." + e.getKey(),
                    e.getValue())));
        }
        return out;
    }

    private static Map<String, HandlerCost> handlers(String f, String at, JsonNode h) {
        Map<String, HandlerCost> handlers = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = h.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String place = at + "." + e.getKey();
            JsonNode v = e.getValue();
            handlers.put(e.getKey(), new HandlerCost(nonNegative(f, place + ".baseMicros", v.get("baseMicros")),
                    v.has("perUnitMicros") ? nonNegative(f, place + ".perUnitMicros", v.get("perUnitMicros")) : 0,
                    v.has("coldMicros") ? nonNegative(f, place + ".coldMicros", v.get("coldMicros")) : 0,
                    v.has("samples") ? (long) nonNegative(f, place + ".samples", v.get("samples")) : 0));
        }
        return handlers;
    }

    private static double atLeastOne(String file, String place, JsonNode v) {
        if (v == null || !v.isNumber() || v.asDouble() < 1) {
            throw new ConfigException(file, 0, place, "expected an overhead factor of at least 1, found "
                    + (v == null ? "nothing" : v.toString()), "run scripts/tebaldi calibrate again");
        }
        return v.asDouble();
    }

    private static double nonNegative(String file, String place, JsonNode v) {
        if (v == null || !v.isNumber() || v.asDouble() < 0) {
            throw new ConfigException(file, 0, place, "expected a non-negative number, found "
                    + (v == null ? "nothing" : v.toString()), "run scripts/tebaldi calibrate again");
        }
        return v.asDouble();
    }

    /**
     * Writes the table as YAML (parent folders created).
     *
     * @throws IOException if the file cannot be written
     */
    static void write(CostTable t, Path file) throws IOException {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("name", t.name());
        root.set("calibration", YAML.valueToTree(t.calibration()));
        root.put("overhead", round(t.overhead()));
        ObjectNode ov = root.putObject("overheads");
        t.overheads().forEach((k, v) -> ov.put(k, round(v)));
        root.put("wakeMicros", round(t.wakeMicros()));
        root.put("lateMicros", round(t.lateMicros()));
        ObjectNode lt = root.putObject("lates");
        t.lates().forEach((k, v) -> lt.put(k, round(v)));
        root.put("defaultBytes", t.defaultBytes());
        ObjectNode b = root.putObject("bytes");
        t.bytes().forEach(b::put);
        put(root.putObject("handlers"), t.handlers());
        ObjectNode w = root.putObject("workloads");
        t.workloads().forEach((k, v) -> put(w.putObject(k), v));
        if (!t.trees().isEmpty()) {
            ArrayNode tr = root.putArray("trees");
            for (TreeCosts c : t.trees()) {
                ObjectNode o = tr.addObject();
                o.put("workload", c.workload());
                o.put("tree", c.tree());
                o.put("shape", c.shape());
                c.experiments().forEach(o.putArray("experiments")::add);
                o.put("overhead", round(c.overhead()));
                o.put("lateMicros", round(c.lateMicros()));
                put(o.putObject("handlers"), c.handlers());
            }
        }
        if (t.logStore() != null) {
            ObjectNode l = root.putObject("logStore");
            l.put("groupMicros", round(t.logStore().groupMicros()));
            l.put("perRecordMicros", round(t.logStore().perRecordMicros()));
            l.put("syncMicros", round(t.logStore().syncMicros()));
            put(l.putObject("handlers"), t.logStore().handlers());
            l.set("calibration", YAML.valueToTree(t.logStore().calibration()));
        }
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, "# CPU cost table for cluster.mode: simulated (docs/simulation.md), written by "
                + "scripts/tebaldi calibrate\n" + YAML.writeValueAsString(root));
    }

    private static void put(ObjectNode h, Map<String, HandlerCost> costs) {
        costs.forEach((k, c) -> {
            ObjectNode o = h.putObject(k);
            o.put("baseMicros", round(c.baseMicros()));
            o.put("perUnitMicros", round(c.perUnitMicros()));
            o.put("coldMicros", round(c.coldMicros()));
            o.put("samples", c.samples());
        });
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
