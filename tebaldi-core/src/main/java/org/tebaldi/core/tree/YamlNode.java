package org.tebaldi.core.tree;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tebaldi.core.config.ConfigException;

/**
 * A YAML value that remembers its 1-based line (0 if unknown): a mapping (keys in document order, each with the
 * line of the key), a sequence, or a scalar ({@link String}, {@link Long}, {@link Double}, {@link Boolean} or
 * null). Read with Jackson's streaming YAML parser so that tree errors can name their line.
 */
final class YamlNode {
    enum Kind { MAP, LIST, SCALAR }

    /** One mapping entry: the value and the line of its key. */
    record Entry(int keyLine, YamlNode value) {
    }

    private static final YAMLFactory YAML = new YAMLFactory();
    private static final Pattern MARK = Pattern.compile("in '[^']*', line (\\d+), column (\\d+):");

    final Kind kind;
    final int line;
    final Object scalar;
    final Map<String, Entry> map;
    final List<YamlNode> list;

    private YamlNode(Kind kind, int line, Object scalar, Map<String, Entry> map, List<YamlNode> list) {
        this.kind = kind;
        this.line = line;
        this.scalar = scalar;
        this.map = map;
        this.list = list;
    }

    /**
     * Parses one YAML document.
     *
     * @return the document's value, or null for an empty document
     * @throws ConfigException for a syntax error (with SnakeYAML's line and column), a key written twice in one
     *                         mapping, or a second document
     */
    static YamlNode parse(String text, String source) {
        try (JsonParser p = YAML.createParser(text)) {
            if (p.nextToken() == null) {
                return null;
            }
            YamlNode doc = read(p, source, "");
            JsonToken extra = p.nextToken();
            if (extra != null) {
                throw new ConfigException(source, p.currentTokenLocation().getLineNr(), "",
                        "a second YAML document starts here", "keep one tree per file (remove the '---' separator)");
            }
            return doc;
        } catch (JsonProcessingException e) {
            throw syntaxError(e, source);
        } catch (IOException e) {
            throw new ConfigException(source, 0, "", "cannot read the YAML text (" + e.getMessage() + ")", null);
        }
    }

    private static YamlNode read(JsonParser p, String source, String place) throws IOException {
        JsonToken t = p.currentToken();
        int line = p.currentTokenLocation().getLineNr();
        switch (t) {
            case START_OBJECT -> {
                Map<String, Entry> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    int keyLine = p.currentTokenLocation().getLineNr();
                    String at = place.isEmpty() ? key : place + "." + key;
                    if (m.containsKey(key)) {
                        throw new ConfigException(source, keyLine, at, "key '" + key + "' is written twice (first at line "
                                + m.get(key).keyLine + ")", "keep one '" + key + "' in this mapping");
                    }
                    p.nextToken();
                    m.put(key, new Entry(keyLine, read(p, source, at)));
                }
                return new YamlNode(Kind.MAP, line, null, m, null);
            }
            case START_ARRAY -> {
                List<YamlNode> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(read(p, source, place + "[" + l.size() + "]"));
                }
                return new YamlNode(Kind.LIST, line, null, null, l);
            }
            case VALUE_NUMBER_INT -> {
                return scalar(line, p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                        ? (Object) p.getText() : (Object) p.getLongValue());
            }
            case VALUE_NUMBER_FLOAT -> {
                return scalar(line, p.getDoubleValue());
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return scalar(line, t == JsonToken.VALUE_TRUE);
            }
            case VALUE_NULL -> {
                return scalar(line, null);
            }
            default -> {
                return scalar(line, p.getText());
            }
        }
    }

    /** Converts a Jackson tree (e.g. a tree written inline in an experiment file); lines are unknown (0). */
    static YamlNode of(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return scalar(0, null);
        }
        if (n.isObject()) {
            Map<String, Entry> m = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                m.put(e.getKey(), new Entry(0, of(e.getValue())));
            }
            return new YamlNode(Kind.MAP, 0, null, m, null);
        }
        if (n.isArray()) {
            List<YamlNode> l = new ArrayList<>();
            n.forEach(x -> l.add(of(x)));
            return new YamlNode(Kind.LIST, 0, null, null, l);
        }
        if (n.isBoolean()) {
            return scalar(0, n.booleanValue());
        }
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            return scalar(0, n.longValue());
        }
        if (n.isFloatingPointNumber()) {
            return scalar(0, n.doubleValue());
        }
        return scalar(0, n.asText());
    }

    private static YamlNode scalar(int line, Object value) {
        return new YamlNode(Kind.SCALAR, line, value, null, null);
    }

    /** Plain Java value: scalars as is, sequences as lists, mappings as ordered maps. */
    Object toJava() {
        return switch (kind) {
            case SCALAR -> scalar;
            case LIST -> list.stream().map(YamlNode::toJava).toList();
            case MAP -> {
                Map<String, Object> m = new LinkedHashMap<>();
                map.forEach((k, e) -> m.put(k, e.value.toJava()));
                yield m;
            }
        };
    }

    /** Short description of the kind of value, for messages: "a list", "a mapping", "the number 3", ... */
    String describe() {
        return switch (kind) {
            case MAP -> "a mapping";
            case LIST -> "a list";
            case SCALAR -> scalar == null ? "empty" : scalar instanceof String s ? "'" + s + "'" : String.valueOf(scalar);
        };
    }

    /**
     * One-line message for a YAML syntax error: SnakeYAML's problem (and context) at the last mark it names, which
     * is where the parser gave up; Jackson's own location if there is no mark.
     */
    private static ConfigException syntaxError(JsonProcessingException e, String source) {
        String msg = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        int column = e.getLocation() == null ? 0 : e.getLocation().getColumnNr();
        Matcher m = MARK.matcher(msg);
        while (m.find()) {
            line = Integer.parseInt(m.group(1));
            column = Integer.parseInt(m.group(2));
        }
        List<String> words = new ArrayList<>();
        String[] lines = msg.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (MARK.matcher(lines[i]).find()) {
                i += 2; // the quoted source line and the caret under it
            } else if (!lines[i].isBlank()) {
                words.add(lines[i].trim());
            }
        }
        String problem = words.isEmpty() ? "unreadable YAML" : words.get(words.size() - 1);
        if (words.size() > 1) {
            problem += " (" + String.join("; ", words.subList(0, words.size() - 1)) + ")";
        }
        return new ConfigException(source, line, "", "YAML syntax error at line " + line + ", column " + column + ": "
                + org.tebaldi.core.config.YamlProblems.plain(problem), "check the indentation (spaces, not tabs), colons, brackets and quotes near line " + line);
    }
}
