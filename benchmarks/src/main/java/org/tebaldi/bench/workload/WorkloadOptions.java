package org.tebaldi.bench.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.bench.config.Suggest;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.config.Durations;

/**
 * The options of an experiment's {@code workload:} section (every key but {@code name}), read by a
 * {@link WorkloadFactory} through typed getters that apply defaults and check ranges. Errors are
 * {@link ConfigException}s naming the experiment file (or the {@code --set} override), the line and the place,
 * e.g. {@code workload.warehouses}. Every value read, defaults included, is kept for the resolved configuration
 * ({@link #resolved()}). Not thread-safe; used while an experiment is being loaded.
 */
public final class WorkloadOptions {
    private static final String PLACE = "workload";
    private final String place;
    private final String workload;
    private final ObjectNode values;
    private final Locator locator;
    private final Map<String, Object> resolved = new LinkedHashMap<>();

    /**
     * @param workload the workload name ({@code workload.name})
     * @param values   the section's other keys (not modified)
     * @param locator  where the values came from, for messages
     */
    public WorkloadOptions(String workload, ObjectNode values, Locator locator) {
        this(workload, values, locator, PLACE);
    }

    private WorkloadOptions(String workload, ObjectNode values, Locator locator, String place) {
        this.workload = workload;
        this.values = values.deepCopy();
        this.values.remove("name");
        this.locator = locator;
        this.place = place;
    }

    /**
     * The options one entry of {@code workload.shift} changes ({@link Shifts}), read with the same typed getters;
     * errors name {@code place}, e.g. {@code workload.shift[0]}.
     */
    WorkloadOptions shifted(ObjectNode changes, String place) {
        return new WorkloadOptions(workload, changes, locator, place);
    }

    /**
     * The raw value of {@code key} (null if absent), counted as read: for structured options such as
     * {@code shift} that a helper parses ({@link Shifts#read}).
     */
    JsonNode raw(String key) {
        JsonNode v = values.get(key);
        if (v != null) {
            resolved.put(key, new ObjectMapper().convertValue(v, Object.class));
        }
        return v;
    }

    /** The located error for {@code place} itself (e.g. a whole shift entry). */
    ConfigException errorAt(String where, String problem, String fix) {
        return locator.error(where, problem, fix);
    }

    /**
     * Options given programmatically (tests, tools); messages name the file {@code <options>}.
     *
     * @param values option values: Long/Integer, Double, String, Boolean
     */
    public static WorkloadOptions of(String workload, Map<String, ?> values) {
        ObjectNode o = new ObjectMapper().valueToTree(values);
        return new WorkloadOptions(workload, o, new Locator("<options>", Map.of()));
    }

    /** The workload name. */
    public String workload() {
        return workload;
    }

    /** Whether the section gives {@code key} (for options whose absence means "the workload's own behaviour"). */
    public boolean has(String key) {
        return values.has(key);
    }

    /**
     * A whole-number option.
     *
     * @throws ConfigException if it is not a whole number or outside {@code [min, max]}
     */
    public long getLong(String key, long defaultValue, long min, long max) {
        JsonNode v = values.get(key);
        long x;
        if (v == null) {
            x = defaultValue;
        } else if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw error(key, "expected a whole number, found " + Values.describe(v), "write e.g. " + key + ": "
                    + defaultValue);
        } else {
            x = v.longValue();
        }
        if (x < min || x > max) {
            throw error(key, "must be between " + min + " and " + max + ", found " + x,
                    "write e.g. " + key + ": " + defaultValue);
        }
        resolved.put(key, x);
        return x;
    }

    /** {@link #getLong} for int ranges. @throws ConfigException as there */
    public int getInt(String key, int defaultValue, int min, int max) {
        return (int) getLong(key, defaultValue, min, max);
    }

    /**
     * A decimal option (whole numbers accepted).
     *
     * @throws ConfigException if it is not a number or outside {@code [min, max]}
     */
    public double getDouble(String key, double defaultValue, double min, double max) {
        JsonNode v = values.get(key);
        double x;
        if (v == null) {
            x = defaultValue;
        } else if (!v.isNumber()) {
            throw error(key, "expected a number, found " + Values.describe(v), "write e.g. " + key + ": "
                    + defaultValue);
        } else {
            x = v.doubleValue();
        }
        if (!(x >= min && x <= max)) {
            throw error(key, "must be between " + min + " and " + max + ", found " + x,
                    "write e.g. " + key + ": " + defaultValue);
        }
        resolved.put(key, x);
        return x;
    }

    /** A true/false option. @throws ConfigException if it is not a boolean */
    public boolean getBoolean(String key, boolean defaultValue) {
        JsonNode v = values.get(key);
        if (v != null && !v.isBoolean()) {
            throw error(key, "expected true or false, found " + Values.describe(v), "write e.g. " + key + ": "
                    + defaultValue);
        }
        boolean x = v == null ? defaultValue : v.booleanValue();
        resolved.put(key, x);
        return x;
    }

    /**
     * A text option.
     *
     * @param allowed the accepted values; none means any text
     * @throws ConfigException if it is not text or not one of {@code allowed}
     */
    public String getString(String key, String defaultValue, String... allowed) {
        JsonNode v = values.get(key);
        if (v != null && !v.isTextual()) {
            throw error(key, "expected text, found " + Values.describe(v), "write e.g. " + key + ": "
                    + defaultValue);
        }
        String x = v == null ? defaultValue : v.textValue();
        List<String> ok = Arrays.asList(allowed);
        if (!ok.isEmpty() && !ok.contains(x)) {
            throw error(key, "unknown value '" + x + "'" + Suggest.didYouMean(x, ok), "use one of "
                    + String.join(", ", ok));
        }
        resolved.put(key, x);
        return x;
    }

    /**
     * A duration option ({@code 50us}, {@code 5ms}, {@code 10s}; a bare number is ms).
     *
     * @return the duration in µs
     * @throws ConfigException if it is not a duration or negative
     */
    public long getDurationMicros(String key, String defaultValue) {
        JsonNode v = values.get(key);
        Object raw = v == null ? defaultValue : v.isNumber() ? v.numberValue() : v.asText();
        long x;
        try {
            x = Durations.parseMicros(raw);
        } catch (IllegalArgumentException e) {
            throw error(key, e.getMessage(), "write e.g. " + key + ": " + defaultValue);
        }
        resolved.put(key, Durations.format(x));
        return x;
    }

    /**
     * An error at {@code workload.<key>}, located in the experiment file or the override that set it.
     *
     * @param fix how to fix it; may be null
     */
    public ConfigException error(String key, String problem, String fix) {
        return locator.error(Locator.join(place, key), problem, fix);
    }

    /**
     * Rejects options no getter read.
     *
     * @throws ConfigException for the first such option, suggesting the closest known one
     */
    public void rejectUnread() {
        for (var it = values.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!resolved.containsKey(k)) {
                String known = resolved.isEmpty() ? "it takes no options"
                        : "use one of name, " + String.join(", ", resolved.keySet());
                throw error(k, "unknown option '" + k + "' for workload '" + workload + "'"
                        + Suggest.didYouMean(k, resolved.keySet()), known);
            }
        }
    }

    /** The workload section as resolved: {@code name}, then every option read with its value or default. */
    public Map<String, Object> resolved() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", workload);
        m.putAll(resolved);
        return Collections.unmodifiableMap(m);
    }
}
