package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.config.Durations;

/**
 * Typed, validated reads of one mapping of an experiment (the top level or a section such as {@code cluster}),
 * each error a {@link ConfigException} at the key's place and line (docs/experiments.md, "Writing an experiment").
 */
final class Fields {
    private final ObjectNode node;
    private final String place;
    private final Locator loc;

    /** @param place the mapping's place, {@code ""} for the top level */
    Fields(ObjectNode node, String place, Locator loc) {
        this.node = node;
        this.place = place;
        this.loc = loc;
    }

    /**
     * The section {@code key} of the top level, empty if absent.
     *
     * @throws ConfigException if present but not a mapping
     */
    Fields section(String key, String example) {
        JsonNode v = node.get(key);
        if (v == null) {
            return new Fields(JsonNodeFactory.instance.objectNode(), at(key), loc);
        }
        if (!v.isObject()) {
            throw loc.error(at(key), "expected a mapping, found " + Values.describe(v), "write e.g. " + key + ": "
                    + example);
        }
        return new Fields((ObjectNode) v, at(key), loc);
    }

    /** The raw mapping. */
    ObjectNode node() {
        return node;
    }

    /** @throws ConfigException for the first key not in {@code known}, suggesting the closest */
    void checkKnown(List<String> known) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) {
                throw loc.error(at(k), ExperimentSchema.unknownKeyProblem(k, known), "use one of "
                        + String.join(", ", known));
            }
        }
    }

    /** @throws ConfigException if {@code key} is absent */
    JsonNode required(String key, String example) {
        JsonNode v = node.get(key);
        if (v == null) {
            throw loc.error(at(key), "missing required key '" + key + "'", "add e.g. " + key + ": " + example);
        }
        return v;
    }

    /**
     * A text value; {@code def} if absent (null: required).
     *
     * @throws ConfigException if absent and required, or not text
     */
    String string(String key, String def, String example) {
        JsonNode v = def == null ? required(key, example) : node.get(key);
        if (v == null) {
            return def;
        }
        if (!v.isTextual() || v.textValue().isBlank()) {
            throw loc.error(at(key), "expected text, found " + Values.describe(v), "write e.g. " + key + ": "
                    + example);
        }
        return v.textValue();
    }

    /**
     * A file or folder path, as text; {@code def} if absent (null: required). Not resolved or checked for existence.
     *
     * @throws ConfigException if absent and required, not text, or not a path on this system (e.g. a NUL character)
     */
    String path(String key, String def, String example) {
        String s = string(key, def, example);
        if (s != null && !s.isEmpty()) {
            checkPath(loc, at(key), s, example);
        }
        return s;
    }

    /** @throws ConfigException at {@code place} if {@code s} is not a path on this system */
    static void checkPath(Locator loc, String place, String s, String example) {
        try {
            java.nio.file.Path.of(s);
        } catch (java.nio.file.InvalidPathException e) {
            throw loc.error(place, "'" + s + "' is not a path (" + e.getReason() + ")", "write a path such as "
                    + example);
        }
    }

    /**
     * A whole number of at least {@code min}; {@code def} if absent (null: required).
     *
     * @throws ConfigException if absent and required, not a whole number, or below {@code min}
     */
    long number(String key, Long def, long min, String example) {
        JsonNode v = def == null ? required(key, example) : node.get(key);
        if (v == null) {
            return def;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw loc.error(at(key), "expected a whole number, found " + Values.describe(v), "write e.g. " + key + ": "
                    + example);
        }
        if (v.longValue() < min) {
            throw loc.error(at(key), "must be at least " + min + ", found " + v.longValue(), "write e.g. " + key + ": "
                    + example);
        }
        return v.longValue();
    }

    /** {@link #number} within int range. @throws ConfigException as there, or above {@link Integer#MAX_VALUE} */
    int intNumber(String key, Integer def, int min, String example) {
        long x = number(key, def == null ? null : (long) def, min, example);
        if (x > Integer.MAX_VALUE) {
            throw loc.error(at(key), "must be at most " + Integer.MAX_VALUE + ", found " + x, "write e.g. " + key
                    + ": " + example);
        }
        return (int) x;
    }

    /**
     * A duration ({@code 50us}, {@code 5ms}, {@code 10s}, {@code 2m}; a bare number is ms), in µs; {@code def} if
     * absent (null: required).
     *
     * @param positive true if zero is rejected too
     * @throws ConfigException if absent and required, not a duration, negative, or zero when {@code positive}
     */
    long duration(String key, String def, boolean positive, String example) {
        JsonNode v = def == null ? required(key, example) : node.get(key);
        if (v == null) {
            return Durations.parseMicros(def);
        }
        if (!v.isNumber() && !v.isTextual()) {
            throw loc.error(at(key), "expected a duration such as " + example + ", found " + Values.describe(v),
                    "write e.g. " + key + ": " + example);
        }
        boolean negative = v.isNumber() ? v.doubleValue() < 0 : v.textValue().trim().startsWith("-");
        if (negative) {
            throw loc.error(at(key), "must not be negative, found " + Values.describe(v), "write e.g. " + key + ": "
                    + example);
        }
        long micros;
        try {
            micros = Durations.parseMicros(v.isNumber() ? v.numberValue() : v.textValue());
        } catch (IllegalArgumentException e) {
            throw loc.error(at(key), e.getMessage(), "write e.g. " + key + ": " + example);
        }
        if (positive && micros == 0) {
            throw loc.error(at(key), "must be positive, found " + Values.describe(v), "write e.g. " + key + ": "
                    + example);
        }
        return micros;
    }

    /** A boolean; {@code def} if absent. @throws ConfigException if not true/false */
    boolean bool(String key, boolean def) {
        JsonNode v = node.get(key);
        if (v == null) {
            return def;
        }
        if (!v.isBoolean()) {
            throw loc.error(at(key), "expected true or false, found " + Values.describe(v), "write e.g. " + key + ": "
                    + def);
        }
        return v.booleanValue();
    }

    /**
     * One of {@code allowed} (case-insensitive), lower-cased; {@code def} if absent.
     *
     * @throws ConfigException for any other value
     */
    String choice(String key, String def, List<String> allowed) {
        String v = string(key, def, def).toLowerCase(Locale.ROOT);
        if (!allowed.contains(v)) {
            throw loc.error(at(key), "unknown " + key + " '" + v + "'", "use " + key + ": "
                    + String.join(" or ", allowed));
        }
        return v;
    }

    /**
     * A number in {@code [min, max]}; {@code def} if absent.
     *
     * @throws ConfigException if not a number or out of range
     */
    double decimal(String key, double def, double min, double max, String example) {
        JsonNode v = node.get(key);
        if (v == null) {
            return def;
        }
        if (!v.isNumber() || v.doubleValue() < min || v.doubleValue() > max || Double.isNaN(v.doubleValue())) {
            throw loc.error(at(key), "expected a number from " + min + " to " + max + ", found " + Values.describe(v),
                    "write e.g. " + key + ": " + example);
        }
        return v.doubleValue();
    }

    /**
     * A non-empty list of values from {@code allowed} (case-insensitive), lower-cased; {@code def} if absent.
     *
     * @throws ConfigException if not a list of known values
     */
    List<String> choices(String key, List<String> def, List<String> allowed) {
        JsonNode v = node.get(key);
        if (v == null) {
            return def;
        }
        String fix = "write e.g. " + key + ": [" + String.join(", ", def) + "] (from: " + String.join(", ", allowed)
                + ")";
        if (!v.isArray() || v.isEmpty()) {
            throw loc.error(at(key), "expected a non-empty list, found " + Values.describe(v), fix);
        }
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode x = v.get(i);
            String s = x.isTextual() ? x.textValue().toLowerCase(Locale.ROOT) : null;
            if (s == null || !allowed.contains(s)) {
                throw loc.error(at(key) + "[" + i + "]", "unknown value " + Values.describe(x), fix);
            }
            out.add(s);
        }
        return List.copyOf(out);
    }

    /** An error at {@code key} of this mapping. */
    ConfigException error(String key, String problem, String fix) {
        return loc.error(at(key), problem, fix);
    }

    private String at(String key) {
        return Locator.join(place, key);
    }
}
