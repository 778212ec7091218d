package org.tebaldi.core.config;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a YAML parser's problem text into words for a {@link ConfigException}: SnakeYAML event dumps
 * ({@code <org.yaml.snakeyaml.events.SequenceStartEvent(anchor=null, ...)>}) become "a list", "a mapping", ...;
 * Jackson's "Expected a field name" becomes "a key must be a plain value"; any other parser class name loses its
 * package; line breaks become spaces (one-line messages). Found by fuzzing the tree and experiment files.
 */
public final class YamlProblems {
    private static final Pattern EVENT = Pattern.compile("<org\\.yaml\\.snakeyaml\\.events\\.(\\w+?)Event\\b[^>]*>");
    private static final Pattern CLASS = Pattern.compile("\\b(?:org\\.yaml|com\\.fasterxml|java\\.lang)\\.[\\w.]*\\.(\\w+)");
    private static final Map<String, String> NAMES = Map.of("SequenceStart", "a list", "MappingStart", "a mapping",
            "Alias", "an alias", "Scalar", "a value", "SequenceEnd", "the end of a list", "MappingEnd",
            "the end of a mapping", "DocumentStart", "a new document", "DocumentEnd", "the end of the document",
            "StreamEnd", "the end of the file");

    private YamlProblems() {
    }

    /** The problem in plain words, on one line. */
    public static String plain(String problem) {
        Matcher m = EVENT.matcher(problem);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(b, Matcher.quoteReplacement(NAMES.getOrDefault(m.group(1), "'" + m.group(1) + "'")));
        }
        m.appendTail(b);
        String s = b.toString().replace("Expected a field name (Scalar value in YAML), got this instead:",
                "a key must be a plain value, found");
        s = CLASS.matcher(s).replaceAll("$1");
        return s.replaceAll("[\\r\\n\\u2028\\u2029]+", " ").trim();
    }
}
