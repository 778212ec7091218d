package org.tebaldi.bench.config;

import com.fasterxml.jackson.databind.JsonNode;

/** Wording of YAML values in error messages. */
public final class Values {
    private Values() {
    }

    /** {@code 'text'} for text, {@code a mapping}, {@code a list}, {@code nothing} for null, else the value. */
    public static String describe(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "nothing";
        }
        if (v.isTextual()) {
            return "'" + v.textValue() + "'";
        }
        if (v.isObject()) {
            return "a mapping";
        }
        if (v.isArray()) {
            return "a list";
        }
        return v.asText();
    }
}
