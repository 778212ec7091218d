package org.tebaldi.core.cc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A group of counters a mechanism's parts report ({@link TcPart#counters}, {@link DsPart#counters}), labelled so run
 * reports and {@code summary.json} can show them without knowing the mechanism (docs/architecture.md, "Adding a
 * mechanism": labelled counters). The parts report each counter as {@code prefix + name}; the group appears in
 * {@code summary.json} under {@code key} as an object of its counts and rates (null when no part reported its
 * first count), and in the console report as one line headed by {@code title}.
 *
 * @param key    the {@code summary.json} key, e.g. {@code cache}; unique among the registered mechanisms' groups
 * @param title  what the counters count, for the console, e.g. {@code "cache of remote reads"}
 * @param prefix the counters' common prefix in the parts' maps, e.g. {@code mech.cache.}
 * @param counts the counters' names after the prefix, in order; the first is the group's presence and base count
 * @param rates  derived rates, each {@code numerator / denominator} of two counts (null when the denominator is
 *               0), in order
 */
public record CounterGroup(String key, String title, String prefix, List<String> counts, List<Rate> rates) {
    /** A rate named {@code name} of two counts of the group, e.g. {@code hitRate = hits / lookups}. */
    public record Rate(String name, String numerator, String denominator) {
    }

    public CounterGroup {
        if (counts.isEmpty()) {
            throw new IllegalArgumentException("counter group '" + key + "' has no counts");
        }
        counts = List.copyOf(counts);
        rates = List.copyOf(rates);
    }

    /** Whether {@code counters} (summed over the nodes) hold this group: its first count was reported. */
    public boolean present(Map<String, Long> counters) {
        return counters != null && counters.containsKey(prefix + counts.get(0));
    }

    /** The counts by their short names (0 for one not reported). */
    public Map<String, Long> values(Map<String, Long> counters) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String c : counts) {
            m.put(c, counters.getOrDefault(prefix + c, 0L));
        }
        return m;
    }

    /** The rates by name, rounded to 4 decimals; null for a rate whose denominator is 0. */
    public Map<String, Double> rateValues(Map<String, Long> counters) {
        Map<String, Long> v = values(counters);
        Map<String, Double> m = new LinkedHashMap<>();
        for (Rate r : rates) {
            long d = v.getOrDefault(r.denominator(), 0L);
            m.put(r.name(), d == 0 ? null : Math.round((double) v.getOrDefault(r.numerator(), 0L) / d * 10_000)
                    / 10_000.0);
        }
        return m;
    }

    /**
     * The console line, e.g. {@code cache of remote reads: lookups 1,200, hits 900, ...; hitRate 75.0%}; null when
     * the group is absent or its first count is 0.
     */
    public String line(Map<String, Long> counters) {
        if (!present(counters) || counters.get(prefix + counts.get(0)) == 0) {
            return null;
        }
        StringBuilder b = new StringBuilder(title).append(": ");
        String sep = "";
        for (Map.Entry<String, Long> e : values(counters).entrySet()) {
            b.append(sep).append(e.getKey()).append(' ').append(String.format(Locale.ROOT, "%,d", e.getValue()));
            sep = ", ";
        }
        sep = "; ";
        for (Map.Entry<String, Double> e : rateValues(counters).entrySet()) {
            if (e.getValue() != null) {
                b.append(sep).append(e.getKey()).append(' ').append(String.format(Locale.ROOT, "%.1f%%",
                        100 * e.getValue()));
                sep = ", ";
            }
        }
        return b.toString();
    }
}
