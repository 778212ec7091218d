package org.tebaldi.bench.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One point of a {@link Sweep}: a fully resolved experiment and the swept values that made it.
 *
 * @param index      1-based position in the sweep
 * @param dir        the point's sub-directory name in the run directory, e.g. {@code 03_tree-ssi_clients-200}:
 *                   the zero-padded index, then {@code key-label} per swept field (last segment of the key;
 *                   characters other than letters, digits, {@code .}, {@code +} and {@code -} become {@code _})
 * @param values     the label of each swept field's value, by key in sweep order (e.g. {@code tree -> ssi},
 *                   {@code clients -> 200}); {@code experiment -> <name>} when several experiment files are run
 * @param experiment the experiment to run at this point
 */
public record SweepPoint(int index, String dir, Map<String, String> values, Experiment experiment) {
    /** Copies the values, keeping their order. */
    public SweepPoint {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** The values as {@code key=label} pairs separated by spaces, e.g. {@code tree=ssi clients=200}. */
    public String describe() {
        return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }

    /** The directory name for point {@code index} of {@code count} with these values (see {@link #dir}). */
    static String dirName(int index, int count, Map<String, String> values) {
        int width = Integer.toString(count).length();
        StringBuilder b = new StringBuilder(String.format("%0" + Math.max(2, width) + "d", index));
        values.forEach((k, v) -> b.append('_').append(k.substring(k.lastIndexOf('.') + 1)).append('-')
                .append(v.replaceAll("[^A-Za-z0-9.+-]", "_")));
        return b.length() <= 120 ? b.toString() : b.substring(0, 120);
    }
}
