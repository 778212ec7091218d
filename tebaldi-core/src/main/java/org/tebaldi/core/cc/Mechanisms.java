package org.tebaldi.core.cc;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Registry of the mechanisms on the class path ({@link ServiceLoader}). */
public final class Mechanisms {
    private static volatile Map<String, Mechanism> all;

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

    /** @throws IllegalArgumentException naming the known mechanisms, for an unknown name */
    public static Mechanism get(String name) {
        Mechanism m = all().get(name);
        if (m == null) {
            throw new IllegalArgumentException("unknown mechanism '" + name + "'; known: " + String.join(", ", all().keySet()));
        }
        return m;
    }
}
