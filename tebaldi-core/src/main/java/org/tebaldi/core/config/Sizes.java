package org.tebaldi.core.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses byte sizes written as a number and a binary unit: {@code 512k}, {@code 256m}, {@code 1.5g}, {@code 2t}
 * (an optional {@code b}, any case: {@code 256MB}, {@code 4GiB}); a bare number means bytes.
 */
public final class Sizes {
    private static final Pattern P = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(?:([kmgt])i?)?b?\\s*");

    private Sizes() {
    }

    /**
     * @return the size in bytes
     * @throws IllegalArgumentException with a message listing the accepted forms, for bad syntax, a negative value
     *                                  or one above {@link Long#MAX_VALUE}
     */
    public static long parseBytes(String text) {
        Matcher m = P.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size (write e.g. 512m, 4g or 1.5g)");
        }
        double v = Double.parseDouble(m.group(1));
        int shift = m.group(2) == null ? 0 : switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 40;
        };
        double bytes = v * (1L << shift);
        if (bytes >= 0x1p63) {
            throw new IllegalArgumentException("size '" + text + "' is too large");
        }
        return (long) bytes;
    }

    /** Formats bytes compactly: {@code 512m}, {@code 1.5g}, {@code 300} (bytes below 1 KiB). */
    public static String format(long bytes) {
        String[] units = {"t", "g", "m", "k"};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << (40 - 10 * i);
            if (bytes >= unit) {
                double v = (double) bytes / unit;
                return (v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v))
                        + units[i];
            }
        }
        return String.valueOf(bytes);
    }
}
