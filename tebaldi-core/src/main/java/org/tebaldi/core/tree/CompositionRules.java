package org.tebaldi.core.tree;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tebaldi.core.config.ConfigException;

/**
 * Which mechanism may be the parent of which, as data (docs/architecture.md, "The CC contract"; dissertation §4.3.2, §4.4): the resource
 * {@code org/tebaldi/core/tree/composability.yaml} lists, for every (parent, child) pair of the mechanisms it
 * names, a {@link Verdict} and a one-line reason. {@link TreeValidator} rejects forbidden pairs and warns about
 * inefficient ones. Mechanisms named here need not be on the class path. Immutable.
 *
 * <p>File format: {@code mechanisms: [2pl, rp, ...]} and {@code rules:}, a list of mappings with keys
 * {@code parent}, {@code child}, {@code verdict} ({@code allowed|inefficient|forbidden}), {@code reason} and an
 * optional {@code fix}. Every ordered pair of the listed mechanisms must appear exactly once.
 */
public final class CompositionRules {
    /** Class-path location of the standard rules. */
    public static final String RESOURCE = "/org/tebaldi/core/tree/composability.yaml";
    private static final List<String> RULE_KEYS = List.of("parent", "child", "verdict", "reason", "fix");
    private static volatile CompositionRules standard;

    private final String source;
    private final List<String> mechanisms;
    private final List<CompositionRule> rules;
    private final Map<String, CompositionRule> byPair;

    private CompositionRules(String source, List<String> mechanisms, List<CompositionRule> rules) {
        this.source = source;
        this.mechanisms = List.copyOf(mechanisms);
        this.rules = List.copyOf(rules);
        Map<String, CompositionRule> m = new LinkedHashMap<>();
        rules.forEach(r -> m.put(key(r.parent(), r.child()), r));
        this.byPair = Collections.unmodifiableMap(m);
    }

    /**
     * The rules shipped with tebaldi-core ({@link #RESOURCE}), loaded once.
     *
     * @throws ConfigException if the resource is missing or malformed (a packaging bug)
     */
    public static CompositionRules standard() {
        CompositionRules r = standard;
        if (r == null) {
            try (InputStream in = CompositionRules.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new ConfigException(RESOURCE, 0, "", "the composability rules are not on the class path",
                            "rebuild tebaldi-core so that its resources are packaged");
                }
                r = parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), RESOURCE);
            } catch (IOException e) {
                throw new ConfigException(RESOURCE, 0, "", "cannot read the composability rules (" + e + ")", null);
            }
            standard = r;
        }
        return r;
    }

    /**
     * Parses a rules document (format in the class comment).
     *
     * @param source file name for messages
     * @throws ConfigException naming the line of the first problem: YAML syntax, unknown key, unknown verdict,
     *                         a mechanism not in {@code mechanisms}, a pair written twice, a pair missing
     */
    public static CompositionRules parse(String yaml, String source) {
        YamlNode doc = YamlNode.parse(yaml, source);
        if (doc == null || doc.kind != YamlNode.Kind.MAP || !doc.map.containsKey("mechanisms")
                || !doc.map.containsKey("rules")) {
            throw new ConfigException(source, doc == null ? 0 : doc.line, "", "a rules file needs the keys "
                    + "'mechanisms' and 'rules'", "see " + RESOURCE + " for the format");
        }
        YamlNode mechs = doc.map.get("mechanisms").value();
        if (mechs.kind != YamlNode.Kind.LIST || mechs.list.isEmpty()) {
            throw new ConfigException(source, mechs.line, "mechanisms", "expected a list of mechanism names, found "
                    + mechs.describe(), "write e.g. mechanisms: [2pl, rp, ssi, tso, none]");
        }
        List<String> names = new ArrayList<>();
        mechs.list.forEach(m -> names.add(String.valueOf(m.toJava())));
        YamlNode list = doc.map.get("rules").value();
        if (list.kind != YamlNode.Kind.LIST) {
            throw new ConfigException(source, list.line, "rules", "expected a list of rules, found " + list.describe(),
                    "write each rule as a list item with parent, child, verdict and reason");
        }
        List<CompositionRule> rules = new ArrayList<>();
        Map<String, CompositionRule> seen = new LinkedHashMap<>();
        for (int i = 0; i < list.list.size(); i++) {
            CompositionRule r = rule(list.list.get(i), "rules[" + i + "]", names, source);
            CompositionRule prev = seen.put(key(r.parent(), r.child()), r);
            if (prev != null) {
                throw new ConfigException(source, r.line(), "rules[" + i + "]", "the pair (" + r.parent() + ", "
                        + r.child() + ") is already ruled at line " + prev.line(), "keep one rule per pair");
            }
            rules.add(r);
        }
        for (String p : names) {
            for (String c : names) {
                if (!seen.containsKey(key(p, c))) {
                    throw new ConfigException(source, list.line, "rules", "no rule for parent '" + p + "' over child '"
                            + c + "'", "add a rule for every ordered pair of the listed mechanisms");
                }
            }
        }
        return new CompositionRules(source, names, rules);
    }

    private static CompositionRule rule(YamlNode n, String place, List<String> names, String source) {
        if (n.kind != YamlNode.Kind.MAP) {
            throw new ConfigException(source, n.line, place, "a rule must be a mapping, found " + n.describe(),
                    "write parent, child, verdict and reason");
        }
        for (Map.Entry<String, YamlNode.Entry> e : n.map.entrySet()) {
            if (!RULE_KEYS.contains(e.getKey())) {
                throw new ConfigException(source, e.getValue().keyLine(), place, "unknown key '" + e.getKey() + "'",
                        "use only " + String.join(", ", RULE_KEYS));
            }
        }
        String parent = field(n, "parent", place, source);
        String child = field(n, "child", place, source);
        for (String m : List.of(parent, child)) {
            if (!names.contains(m)) {
                throw new ConfigException(source, n.line, place, "mechanism '" + m + "' is not in 'mechanisms'",
                        "add it to mechanisms: or use one of " + String.join(", ", names));
            }
        }
        String word = field(n, "verdict", place, source);
        Verdict v = Verdict.parse(word);
        if (v == null) {
            throw new ConfigException(source, n.line, place + ".verdict", "unknown verdict '" + word + "'",
                    "use allowed, inefficient or forbidden");
        }
        String reason = field(n, "reason", place, source);
        YamlNode.Entry fix = n.map.get("fix");
        String fixText = fix == null || fix.value().scalar == null ? null : String.valueOf(fix.value().scalar);
        return new CompositionRule(parent, child, v, reason, fixText, n.line);
    }

    private static String field(YamlNode n, String key, String place, String source) {
        YamlNode.Entry e = n.map.get(key);
        if (e == null || e.value().kind != YamlNode.Kind.SCALAR || e.value().scalar == null
                || String.valueOf(e.value().scalar).isBlank()) {
            throw new ConfigException(source, n.line, place, "missing or empty '" + key + "'",
                    "every rule has parent, child, verdict and reason");
        }
        return String.valueOf(e.value().scalar);
    }

    private static String key(String parent, String child) {
        return parent + "\u0000" + child;
    }

    /** Where the rules came from (resource path or file name). */
    public String source() {
        return source;
    }

    /** The mechanisms the rules cover, in file order. */
    public List<String> mechanisms() {
        return mechanisms;
    }

    /** All rules in file order. */
    public List<CompositionRule> rules() {
        return rules;
    }

    /** The rule for {@code parent} over {@code child}, or null if the rules do not cover the pair. */
    public CompositionRule rule(String parent, String child) {
        return byPair.get(key(parent, child));
    }

    /** The verdict for {@code parent} over {@code child}, or null if the rules do not cover the pair. */
    public Verdict verdict(String parent, String child) {
        CompositionRule r = rule(parent, child);
        return r == null ? null : r.verdict();
    }

    /** The one-line reason for the pair's verdict, or null if the rules do not cover the pair. */
    public String reason(String parent, String child) {
        CompositionRule r = rule(parent, child);
        return r == null ? null : r.reason();
    }

    /** Mechanisms that may be children of {@code parent} with the given verdicts, in file order. */
    public List<String> childrenOf(String parent, Set<Verdict> verdicts) {
        return mechanisms.stream().filter(c -> verdicts.contains(verdict(parent, c))).toList();
    }

    /** Mechanisms that may be parents of {@code child} with the given verdicts, in file order. */
    public List<String> parentsOf(String child, Set<Verdict> verdicts) {
        return mechanisms.stream().filter(p -> verdicts.contains(verdict(p, child))).toList();
    }
}
