package org.tebaldi.core.runtime.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.config.ConfigException;

/**
 * A calibrated cost table, {@code config/costs/<name>.yaml} (docs/simulation.md, "Cost model"): the CPU cost of
 * each handler key ({@code "<role> <message class>"} or {@code "<role> timer"}, see {@link HandlerProfile}), the
 * per-message CPU overhead of receiving a message (the runtime's queues, timers, the garbage collector: machine CPU
 * not spent inside handlers, spread over the messages), the encoded size of each message class, and the scale
 * applied to a handler's own time in {@code measured} mode. Written by {@code scripts/tebaldi calibrate}, never by
 * hand from a paper.
 *
 * @param name             the table's name (file name without {@code .yaml})
 * @param calibration      where and how it was measured (host, cores, Java, experiments, totals), as written
 * @param perMessageMicros CPU charged per delivered message on top of its handler, µs
 * @param measuredScale    factor from a handler's time measured inside the simulation to charged CPU time
 * @param defaultBytes     encoded size of a message class not in {@code bytes}, bytes
 * @param bytes            encoded size per message class (simple name), bytes
 * @param handlers         handler costs by key
 */
public record CostTable(String name, Map<String, Object> calibration, double perMessageMicros, double measuredScale,
                        int defaultBytes, Map<String, Integer> bytes, Map<String, HandlerCost> handlers) {
    private static final YAMLMapper YAML = new YAMLMapper();

    public CostTable {
        calibration = Collections.unmodifiableMap(new LinkedHashMap<>(calibration));
        bytes = Collections.unmodifiableMap(new TreeMap<>(bytes));
        handlers = Collections.unmodifiableMap(new TreeMap<>(handlers));
    }

    /**
     * The cost of a key the table lacks: the sample-weighted mean cost (at 0 units) of the keys of the same role,
     * else of all keys, else 0.
     */
    public HandlerCost fallback(String key) {
        int space = key.indexOf(' ');
        String role = space < 0 ? "" : key.substring(0, space + 1);
        double sum = 0;
        long n = 0;
        double all = 0;
        long allN = 0;
        for (Map.Entry<String, HandlerCost> e : handlers.entrySet()) {
            HandlerCost c = e.getValue();
            long w = Math.max(1, c.samples());
            all += c.baseMicros() * w;
            allN += w;
            if (!role.isEmpty() && e.getKey().startsWith(role)) {
                sum += c.baseMicros() * w;
                n += w;
            }
        }
        double mean = n > 0 ? sum / n : allN > 0 ? all / allN : 0;
        return new HandlerCost(mean, 0, 0);
    }

    /** The cost of {@code key}: its entry, or {@link #fallback}. */
    public HandlerCost cost(String key) {
        HandlerCost c = handlers.get(key);
        return c != null ? c : fallback(key);
    }

    /** The encoded size of a message of class {@code simpleName}, bytes. */
    public int bytes(String simpleName) {
        return bytes.getOrDefault(simpleName, defaultBytes);
    }

    /**
     * Reads a table.
     *
     * @throws ConfigException naming the file and the place if it cannot be read or a value is missing or negative
     */
    public static CostTable read(Path file) {
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
        Map<String, Integer> bytes = new TreeMap<>();
        JsonNode b = root.get("bytes");
        if (b != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = b.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                bytes.put(e.getKey(), (int) nonNegative(f, "bytes." + e.getKey(), e.getValue()));
            }
        }
        Map<String, HandlerCost> handlers = new TreeMap<>();
        JsonNode h = root.get("handlers");
        if (h == null || !h.isObject() || h.isEmpty()) {
            throw new ConfigException(f, 0, "handlers", "no handler costs", "run scripts/tebaldi calibrate --out " + f);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = h.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String place = "handlers." + e.getKey();
            JsonNode v = e.getValue();
            handlers.put(e.getKey(), new HandlerCost(nonNegative(f, place + ".baseMicros", v.get("baseMicros")),
                    v.has("perUnitMicros") ? nonNegative(f, place + ".perUnitMicros", v.get("perUnitMicros")) : 0,
                    v.has("samples") ? (long) nonNegative(f, place + ".samples", v.get("samples")) : 0));
        }
        String name = root.path("name").asText(file.getFileName().toString().replaceFirst("\\.ya?ml$", ""));
        return new CostTable(name, calibration, nonNegative(f, "perMessageMicros", root.get("perMessageMicros")),
                root.has("measuredScale") ? nonNegative(f, "measuredScale", root.get("measuredScale")) : 1.0,
                root.has("defaultBytes") ? (int) nonNegative(f, "defaultBytes", root.get("defaultBytes")) : 128,
                bytes, handlers);
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
    public void write(Path file) throws IOException {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("name", name);
        root.set("calibration", YAML.valueToTree(calibration));
        root.put("perMessageMicros", round(perMessageMicros));
        root.put("measuredScale", round(measuredScale));
        root.put("defaultBytes", defaultBytes);
        ObjectNode b = root.putObject("bytes");
        bytes.forEach(b::put);
        ObjectNode h = root.putObject("handlers");
        handlers.forEach((k, c) -> {
            ObjectNode o = h.putObject(k);
            o.put("baseMicros", round(c.baseMicros()));
            o.put("perUnitMicros", round(c.perUnitMicros()));
            o.put("samples", c.samples());
        });
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, "# CPU cost table for cluster.mode: simulated (docs/simulation.md), written by "
                + "scripts/tebaldi calibrate\n" + YAML.writeValueAsString(root));
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /**
     * Fits a table from handler timings of calibration runs.
     *
     * @param totals           handler sums by key over all runs ({@link HandlerProfile#mergeInto})
     * @param cpuNanos         CPU time of the runs' JVM over the same windows, ns
     * @param measuredScale    see the record
     * @param bytes            encoded size per message class
     */
    public static CostTable fit(String name, Map<String, Object> calibration, Map<String, HandlerProfile.Sums> totals,
                                long cpuNanos, double measuredScale, int defaultBytes, Map<String, Integer> bytes) {
        Map<String, HandlerCost> handlers = new TreeMap<>();
        double handlerNanos = 0;
        long messages = 0;
        for (Map.Entry<String, HandlerProfile.Sums> e : totals.entrySet()) {
            handlers.put(e.getKey(), HandlerCost.fit(e.getValue()));
            handlerNanos += e.getValue().nanos;
            messages += e.getValue().count;
        }
        double perMessage = messages == 0 ? 0 : Math.max(0, (cpuNanos - handlerNanos) / messages / 1000);
        Map<String, Object> cal = new LinkedHashMap<>(calibration);
        cal.put("cpuMs", cpuNanos / 1_000_000);
        cal.put("handlerMs", Math.round(handlerNanos / 1e6));
        cal.put("handled", messages);
        return new CostTable(name, cal, perMessage, measuredScale, defaultBytes, bytes, handlers);
    }
}
