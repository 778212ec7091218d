package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.tebaldi.bench.config.LocatedYaml;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.config.ConfigException;

/**
 * Experiment profiles (docs/experiments.md, "Writing an experiment"; docs/simulation.md, "The dissertation's setup"): a top-level
 * {@code profile: NAME} names a file of experiment keys, {@code config/profiles/NAME.yaml}, whose keys apply
 * <em>under</em> the experiment's own: every key the experiment (after its {@code --set} overrides) does not set is
 * taken from the profile, section by section, so an experiment key and an override always win. {@code profile:
 * none} (the default) applies nothing; {@code profile: some/file.yaml} names a file relative to the experiment (to
 * the working directory when it comes from {@code --set}). A name is looked up in {@code config/profiles/} under the
 * working directory, then under the experiment's folder and each folder above it.
 *
 * <p>A profile is a mapping of experiment keys like an experiment's, without {@code name}, {@code profile},
 * {@code tree} or {@code workload.name} (a profile describes a setup, not an experiment) and without lists to sweep
 * (a profile sets one value per key). Errors about a value taken from a profile name the profile file and line
 * ({@link Locator#markProfile}). Applied per sweep point, so {@code profile: [none, dissertation]} sweeps it.
 */
final class Profiles {
    /** Where named profiles live, relative to a repository root. */
    static final String DIR = "config/profiles";
    /** No profile. */
    static final String NONE = "none";
    private static final String NAME = "[A-Za-z0-9._-]+";
    private static final List<String> FORBIDDEN = List.of("name", "profile", "tree");

    private Profiles() {
    }

    /**
     * Applies the profile {@code root} names, if any, to {@code root} (in place), recording in {@code loc} the places
     * it supplied.
     *
     * @param file the experiment file (its folder resolves a relative profile path and starts the name lookup)
     * @param cwd  the working directory
     * @throws ConfigException if the profile is not text, not found, unreadable, or holds a key a profile may not set
     */
    static void apply(ObjectNode root, Locator loc, Path file, Path cwd) {
        JsonNode v = root.get("profile");
        if (v == null || v.isTextual() && v.textValue().equals(NONE)) {
            return;
        }
        if (!v.isTextual() || v.textValue().isBlank()) {
            throw loc.error("profile", "expected a profile name or a profile file, found " + Values.describe(v),
                    "write e.g. profile: dissertation (config/profiles/dissertation.yaml), or profile: none");
        }
        Path dir = file.getParent() == null ? Path.of("") : file.getParent();
        Path p = locate(v.textValue(), loc, dir, cwd);
        String source = p.toString();
        String text;
        try {
            text = Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw loc.error("profile", "cannot read the profile " + p + " (" + e.getMessage() + ")",
                    "check that it is a readable UTF-8 YAML file");
        }
        LocatedYaml.Document doc = LocatedYaml.parse(text, source);
        if (doc.root() == null || !doc.root().isObject()) {
            throw new ConfigException(source, 0, "", "a profile must be a mapping of experiment keys, found "
                    + (doc.root() == null ? "an empty file" : Values.describe(doc.root())),
                    "write e.g. retry: {backoff: 0us, maxBackoff: 0us}");
        }
        ObjectNode prof = (ObjectNode) doc.root();
        check(prof, source, doc.lines());
        merge(root, prof, "", loc, source, doc.lines());
    }

    /** The profile file {@code value} names. */
    private static Path locate(String value, Locator loc, Path dir, Path cwd) {
        if (value.endsWith(".yaml") || value.endsWith(".yml")) {
            Path base = loc.overridden("profile") ? cwd : dir;
            Path p = base.resolve(value).normalize();
            if (!Files.isRegularFile(p)) {
                throw loc.error("profile", "profile file '" + value + "' not found (looked for " + p.toAbsolutePath()
                        + ")", "give a path relative to " + (loc.overridden("profile") ? "the working directory"
                        : "the experiment file's folder") + ", or a name from " + DIR);
            }
            return p;
        }
        if (!value.matches(NAME)) {
            throw loc.error("profile", "'" + value + "' is neither a profile name nor a .yaml file",
                    "write a name from " + DIR + " (e.g. profile: dissertation) or a path ending in .yaml");
        }
        List<Path> looked = new ArrayList<>();
        for (Path base : bases(dir, cwd)) {
            Path p = base.resolve(DIR).resolve(value + ".yaml").normalize();
            if (Files.isRegularFile(p)) {
                return p;
            }
            looked.add(base.resolve(DIR).normalize());
        }
        List<String> known = new ArrayList<>();
        for (Path d : looked) {
            if (Files.isDirectory(d)) {
                try (Stream<Path> s = Files.list(d)) {
                    s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted()
                            .forEach(n -> known.add(n.substring(0, n.length() - 5)));
                } catch (IOException e) {
                    continue;
                }
                break;
            }
        }
        throw loc.error("profile", "no profile '" + value + "' (looked for " + value + ".yaml in " + DIR
                + " under the working directory and the experiment's folders)", known.isEmpty()
                ? "run from the repository root, or name a profile file (profile: path/to/profile.yaml)"
                : "use one of " + NONE + ", " + String.join(", ", known));
    }

    /** The working directory, then the experiment's folder and every folder above it. */
    private static List<Path> bases(Path dir, Path cwd) {
        List<Path> out = new ArrayList<>();
        out.add(cwd.toAbsolutePath().normalize());
        for (Path d = dir.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
            if (!out.contains(d)) {
                out.add(d);
            }
        }
        return out;
    }

    /** Rejects keys a profile may not set, unknown top-level keys and lists to sweep. */
    private static void check(ObjectNode prof, String source, Map<String, Integer> lines) {
        for (Iterator<Map.Entry<String, JsonNode>> it = prof.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            int line = lines.getOrDefault(k, 0);
            if (FORBIDDEN.contains(k)) {
                throw new ConfigException(source, line, k, "a profile cannot set '" + k + "' (it describes a setup "
                        + "that applies to many experiments)", "set " + k + " in the experiment file");
            }
            if (!ExperimentSchema.TOP.contains(k)) {
                throw new ConfigException(source, line, k, ExperimentSchema.unknownKeyProblem(k, ExperimentSchema.TOP),
                        "use experiment keys only (docs/experiments.md, \"Writing an experiment\")");
            }
            if (k.equals("workload") && f.getValue().has("name")) {
                throw new ConfigException(source, lines.getOrDefault("workload.name", line), "workload.name",
                        "a profile cannot choose the workload", "set the workload in the experiment file; a "
                        + "profile may set workload options such as execution or roundTrips");
            }
            listInside(f.getValue(), k, source, lines);
        }
    }

    private static void listInside(JsonNode v, String place, String source, Map<String, Integer> lines) {
        if (v.isArray()) {
            throw new ConfigException(source, lines.getOrDefault(place, 0), place, "a profile sets one value per key, "
                    + "not a list", "write one value; list values to sweep in the experiment file");
        }
        if (v.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                listInside(f.getValue(), place + "." + f.getKey(), source, lines);
            }
        }
    }

    /** Copies every key of {@code prof} that {@code doc} lacks, recursing into sections both have. */
    private static void merge(ObjectNode doc, ObjectNode prof, String at, Locator loc, String source,
                              Map<String, Integer> lines) {
        for (Iterator<Map.Entry<String, JsonNode>> it = prof.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String place = Locator.join(at, f.getKey());
            JsonNode mine = doc.get(f.getKey());
            if (mine == null || mine.isNull()) {
                doc.set(f.getKey(), f.getValue().deepCopy());
                loc.markProfile(place, source, lines);
            } else if (mine.isObject() && f.getValue().isObject()) {
                merge((ObjectNode) mine, (ObjectNode) f.getValue(), place, loc, source, lines);
            }
        }
    }
}
