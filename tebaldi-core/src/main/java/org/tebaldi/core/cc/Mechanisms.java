package org.tebaldi.core.cc;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Registry of the mechanisms on the class path ({@link ServiceLoader}). */
public final class Mechanisms {
    private static volatile Map<String, Mechanism> all;
    private static volatile java.util.List<CounterGroup> groups;

    private Mechanisms() {
    }

    /** All mechanisms by name, sorted. */
    public static Map<String, Mechanism> all() {
        Map<String, Mechanism> m = all;
        if (m == null) {
            m = new TreeMap<>();
            for (Mechanism x : ServiceLoader.load(Mechanism.class)) {
                m.put(x.name(), x);
            }
            all = m = java.util.Collections.unmodifiableMap(m);
        }
        return m;
    }

    /**
     * The labelled counter groups of every registered mechanism ({@link LabelledCounters}), sorted by key; found once.
     *
     * @throws IllegalStateException if two groups share a {@code summary.json} key
     */
    public static java.util.List<CounterGroup> counterGroups() {
        java.util.List<CounterGroup> g = groups;
        if (g == null) {
            Map<String, CounterGroup> byKey = new TreeMap<>();
            for (Mechanism m : all().values()) {
                if (m instanceof LabelledCounters lc) {
                    for (CounterGroup c : lc.counterGroups()) {
                        if (byKey.put(c.key(), c) != null) {
                            throw new IllegalStateException("two mechanisms label counters '" + c.key()
                                    + "'; give mechanism " + m.name() + "'s group another key");
                        }
                    }
                }
            }
            groups = g = java.util.List.copyOf(byKey.values());
        }
        return g;
    }

    /** @throws IllegalArgumentException naming the known mechanisms, for an unknown name */
    public static Mechanism get(String name) {
        Mechanism m = all().get(name);
        if (m == null) {
            throw new IllegalArgumentException("unknown mechanism '" + name + "'; known: " + String.join(", ", all().keySet()));
        }
        return m;
    }
}
