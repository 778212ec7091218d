package org.tebaldi.bench.config;

import java.util.HashMap;
import java.util.Map;
import org.tebaldi.core.config.ConfigException;

/**
 * Says where a value of an experiment came from, so that errors name the right file and line (docs/experiments.md, "Writing an experiment"): the
 * experiment file and the line of the key, the {@code --set key=value} override that replaced it (or one of
 * its enclosing sections), or the profile file it was taken from ({@code profile:}, {@link #markProfile}). Places
 * are dotted paths with list indices, e.g. {@code cluster.networkDelay} or {@code tree.root.children[1]}.
 */
public final class Locator {
    private final String file;
    private final Map<String, Integer> lines;
    private final Map<String, String> overrides = new HashMap<>();
    /** Places taken from a profile: the profile's file and key lines, by place. */
    private final Map<String, Profiled> profiled = new HashMap<>();

    private record Profiled(String file, Map<String, Integer> lines) {
    }

    /**
     * @param file  the experiment file as the user named it, used as the message's file
     * @param lines 1-based line of each place's key in the file (see {@link LocatedYaml})
     */
    public Locator(String file, Map<String, Integer> lines) {
        this.file = file;
        this.lines = Map.copyOf(lines);
    }

    /** The experiment file as the user named it. */
    public String file() {
        return file;
    }

    /** Records that {@code place} was set by the override {@code assignment} (e.g. {@code clients=64}). */
    public void markOverride(String place, String assignment) {
        overrides.put(place, assignment);
    }

    /**
     * A copy with the same lines and overrides (each sweep point applies its own profile to its copy).
     */
    public Locator copy() {
        Locator l = new Locator(file, lines);
        l.overrides.putAll(overrides);
        l.profiled.putAll(profiled);
        return l;
    }

    /**
     * Records that {@code place} (and everything under it) was taken from the profile file {@code profileFile}, whose
     * key lines by place are {@code profileLines} (see {@link LocatedYaml}).
     */
    public void markProfile(String place, String profileFile, Map<String, Integer> profileLines) {
        profiled.put(place, new Profiled(profileFile, profileLines));
    }

    /** Whether {@code place} or a section enclosing it was set by {@code --set}. */
    public boolean overridden(String place) {
        return override(place) != null;
    }

    /**
     * An error at {@code place}: file {@code --set key=value} if an override set it, else the profile file and line
     * if a profile supplied it ({@link #markProfile}), else the experiment file and the line of the place (or of its
     * closest enclosing place with a known line; 0 if none).
     *
     * @param place   dotted place, e.g. {@code workload.warehouses}; empty for the whole document
     * @param problem what is wrong
     * @param fix     how to fix it; may be null
     */
    public ConfigException error(String place, String problem, String fix) {
        String o = override(place);
        if (o != null) {
            return new ConfigException("--set " + o, 0, place, problem, fix);
        }
        for (String p = place; p != null; p = parent(p)) {
            Profiled prof = profiled.get(p);
            if (prof != null) {
                int line = 0;
                for (String q = place; q != null && line == 0; q = parent(q)) {
                    line = prof.lines().getOrDefault(q, 0);
                }
                return new ConfigException(prof.file(), line, place, problem, fix);
            }
            if (lines.containsKey(p)) {
                break;
            }
        }
        return new ConfigException(file, line(place), place, problem, fix);
    }

    /** The 1-based line of {@code place} or of its closest enclosing place; 0 if unknown. */
    public int line(String place) {
        for (String p = place; p != null; p = parent(p)) {
            Integer l = lines.get(p);
            if (l != null) {
                return l;
            }
        }
        return 0;
    }

    private String override(String place) {
        for (String p = place; p != null; p = parent(p)) {
            String o = overrides.get(p);
            if (o != null) {
                return o;
            }
        }
        return null;
    }

    /** {@code a.b[2]} → {@code a.b}; {@code a.b} → {@code a}; {@code a} → {@code ""}; {@code ""} → null. */
    static String parent(String place) {
        if (place.isEmpty()) {
            return null;
        }
        int cut = Math.max(place.lastIndexOf('.'), place.lastIndexOf('['));
        return cut < 0 ? "" : place.substring(0, cut);
    }

    /** {@code place} joined with a key: {@code join("", "a")} is {@code a}, {@code join("a", "b")} is {@code a.b}. */
    public static String join(String place, String key) {
        return place.isEmpty() ? key : place + "." + key;
    }
}
