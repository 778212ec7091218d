package org.tebaldi.core.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations written as a number and a unit: {@code 50us}, {@code 50µs}, {@code 5ms}, {@code 10s},
 * {@code 2m}; a bare number means milliseconds.
 */
public final class Durations {
    private static final Pattern P = Pattern.compile("\\s*(-?\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s|m|min)?\\s*");

    private Durations() {
    }

    /**
     * @return the duration in µs
     * @throws IllegalArgumentException with a message listing the accepted forms, for bad syntax or a negative value
     */
    public static long parseMicros(String text) {
        Matcher m = P.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (write e.g. 50us, 5ms, 10s, 2m)");
        }
        double v = Double.parseDouble(m.group(1));
        if (v < 0) {
            throw new IllegalArgumentException("duration '" + text + "' is negative");
        }
        String unit = m.group(2) == null ? "ms" : m.group(2);
        double micros = switch (unit) {
            case "us", "µs" -> v;
            case "ms" -> v * 1e3;
            case "s" -> v * 1e6;
            default -> v * 60e6;
        };
        return Math.round(micros);
    }

    /** Parses a YAML value: a number (ms) or a string with unit. @see #parseMicros(String) */
    public static long parseMicros(Object yamlValue) {
        if (yamlValue instanceof Number n) {
            if (n.doubleValue() < 0) {
                throw new IllegalArgumentException("duration " + n + " is negative");
            }
            return Math.round(n.doubleValue() * 1e3);
        }
        return parseMicros(String.valueOf(yamlValue));
    }

    /** Formats µs compactly: {@code 50us}, {@code 5ms}, {@code 1.5s}. */
    public static String format(long micros) {
        if (micros % 1_000_000 == 0 && micros != 0) {
            return micros / 1_000_000 + "s";
        }
        if (micros >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1fs", micros / 1e6);
        }
        if (micros % 1000 == 0 && micros != 0) {
            return micros / 1000 + "ms";
        }
        return micros + "us";
    }
}
