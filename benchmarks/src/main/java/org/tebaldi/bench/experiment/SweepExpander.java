package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.core.config.ConfigException;

/**
 * Sweeps in an experiment document (overrides already applied): a field whose value is a list is swept, and the
 * experiment runs once per combination of the listed values (the cartesian product; the last swept field varies
 * fastest). Sweepable: every top-level field but {@code name} and {@code output} ({@code tree}, {@code clients},
 * {@code warmup}, {@code duration}, {@code verify}, {@code seed}), every field of {@code cluster},
 * {@code retry} and {@code durability} (e.g. {@code writeLatency: [1us, 1ms]}, COCO Fig 11), and every workload option but the workload's {@code name}. Lists inside an inline tree, and
 * {@code workload.shift}'s list of shifts, are their own structure, never sweeps. Each problem is one {@link ConfigException} at the list's place and line:
 * an empty list, a list where one value is required, a whole section as a list, a list inside a list, a value
 * listed twice, more than {@value #MAX_POINTS} points. Unknown keys are left to {@link ExperimentReader}.
 */
final class SweepExpander {
    /** Most points one experiment may expand to. */
    static final int MAX_POINTS = 10_000;
    private static final List<String> SINGLE = List.of("name", "output");
    private static final List<String> SECTIONS = List.of("workload", "cluster", "retry", "durability");
    /** The workload option whose list is its own structure, not a sweep ({@code workload.shift}). */
    private static final String SHIFT = "shift";

    private SweepExpander() {
    }

    /**
     * One swept field.
     *
     * @param place  dotted place, e.g. {@code clients} or {@code workload.warehouses}
     * @param values the listed values, in order
     * @param labels a short label per value: the value as written, or for {@code tree} the file name without
     *               {@code .yaml} ({@code inline-N} for an inline tree), unless two labels would be equal
     */
    record Axis(String place, List<JsonNode> values, List<String> labels) {
    }

    /**
     * One combination: the label chosen on each axis, by place in axis order, and the document holding the values.
     */
    record Expanded(Map<String, String> labels, ObjectNode doc) {
    }

    /**
     * The swept fields of {@code root}, in document order.
     *
     * @throws ConfigException for the first malformed sweep
     */
    static List<Axis> axes(ObjectNode root, Locator loc) {
        List<Axis> axes = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String key = f.getKey();
            JsonNode v = f.getValue();
            if (!ExperimentSchema.TOP.contains(key)) {
                continue;
            }
            if (SECTIONS.contains(key)) {
                if (v.isArray()) {
                    throw loc.error(key, "the whole '" + key + "' section cannot be a list", "sweep its fields "
                            + "instead, e.g. " + sectionExample(key));
                }
                if (v.isObject()) {
                    sectionAxes(key, (ObjectNode) v, loc, axes);
                }
            } else if (v.isArray()) {
                if (SINGLE.contains(key)) {
                    throw loc.error(key, "'" + key + "' takes one value, not a list (it cannot be swept)",
                            "write e.g. " + key + ": " + (key.equals("name") ? "tpcc-2pl" : "results")
                                    + ", and list values of other fields such as clients: [50, 200]");
                }
                axes.add(axis(key, (ArrayNode) v, loc));
            }
        }
        long points = 1;
        for (Axis a : axes) {
            points *= a.values().size();
            if (points > MAX_POINTS) {
                throw loc.error(a.place(), "the sweep has more than " + MAX_POINTS + " points",
                        "list fewer values, or split the sweep into several experiments");
            }
        }
        return axes;
    }

    /** Every combination of the axes' values (one document, the root unchanged, when there are none). */
    static List<Expanded> expand(ObjectNode root, List<Axis> axes) {
        int n = 1;
        for (Axis a : axes) {
            n *= a.values().size();
        }
        List<Expanded> out = new ArrayList<>(n);
        int[] digit = new int[axes.size()];
        for (int i = 0; i < n; i++) {
            ObjectNode doc = root.deepCopy();
            Map<String, String> labels = new LinkedHashMap<>();
            for (int a = 0; a < axes.size(); a++) {
                Axis axis = axes.get(a);
                put(doc, axis.place(), axis.values().get(digit[a]).deepCopy());
                labels.put(axis.place(), axis.labels().get(digit[a]));
            }
            out.add(new Expanded(labels, doc));
            for (int a = axes.size() - 1; a >= 0; a--) {
                if (++digit[a] < axes.get(a).values().size()) {
                    break;
                }
                digit[a] = 0;
            }
        }
        return out;
    }

    private static void sectionAxes(String section, ObjectNode s, Locator loc, List<Axis> axes) {
        for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getValue().isArray() || (section.equals("workload") && f.getKey().equals(SHIFT))) {
                continue; // workload.shift's list is the option's own structure (Shifts), never a sweep
            }
            String place = Locator.join(section, f.getKey());
            if (section.equals("workload") && f.getKey().equals("name")) {
                throw loc.error(place, "the workload's name takes one value, not a list", "keep one workload per "
                        + "experiment and list its options instead (e.g. warehouses: [1, 10]); to compare "
                        + "workloads, run several experiment files: tebaldi run a.yaml b.yaml");
            }
            axes.add(axis(place, (ArrayNode) f.getValue(), loc));
        }
    }

    private static Axis axis(String place, ArrayNode list, Locator loc) {
        String key = place.substring(place.lastIndexOf('.') + 1);
        if (list.isEmpty()) {
            throw loc.error(place, "an empty list sweeps no value", "list at least one value, e.g. " + key + ": "
                    + example(key) + ", or write a single value");
        }
        List<JsonNode> values = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode v = list.get(i);
            String at = place + "[" + i + "]";
            if (v.isArray()) {
                throw loc.error(at, "a swept value cannot itself be a list", "write the values as one flat list, "
                        + "e.g. " + key + ": " + example(key));
            }
            int first = values.indexOf(v);
            if (first >= 0) {
                throw loc.error(at, "value " + text(v) + " is listed twice (also " + place + "[" + first + "])",
                        "list each value once");
            }
            values.add(v);
        }
        return new Axis(place, List.copyOf(values), labels(place, values));
    }

    private static List<String> labels(String place, List<JsonNode> values) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            JsonNode v = values.get(i);
            if (place.equals("tree") && v.isObject()) {
                labels.add("inline-" + (i + 1));
            } else if (place.equals("tree") && v.isTextual()) {
                String name = v.textValue().replace('\\', '/');
                name = name.substring(name.lastIndexOf('/') + 1);
                labels.add(name.replaceFirst("\\.(yaml|yml)$", ""));
            } else {
                labels.add(text(v));
            }
        }
        Set<String> seen = new HashSet<>(labels);
        if (seen.size() < labels.size()) {
            labels.clear();
            values.forEach(v -> labels.add(text(v)));
        }
        return List.copyOf(labels);
    }

    private static String text(JsonNode v) {
        return v.isValueNode() ? v.asText() : v.toString();
    }

    private static void put(ObjectNode doc, String place, JsonNode value) {
        int dot = place.indexOf('.');
        if (dot < 0) {
            doc.set(place, value);
        } else {
            ((ObjectNode) doc.get(place.substring(0, dot))).set(place.substring(dot + 1), value);
        }
    }

    private static String example(String key) {
        return switch (key) {
            case "tree" -> "[../trees/2pl.yaml, ../trees/ssi.yaml]";
            case "clients" -> "[50, 200, 800]";
            case "warmup", "duration" -> "[5s, 20s]";
            case "networkDelay", "backoff", "maxBackoff", "writeLatency" -> "[0us, 50us]";
            case "verify" -> "[after, off]";
            default -> "[1, 2]";
        };
    }

    private static String sectionExample(String section) {
        return switch (section) {
            case "workload" -> "workload: {name: tpcc, warehouses: [1, 10]}";
            case "cluster" -> "cluster: {networkDelay: [0us, 50us]}";
            case "durability" -> "durability: {enabled: true, writeLatency: [1us, 1ms]}";
            default -> "retry: {backoff: [1ms, 5ms]}";
        };
    }
}
