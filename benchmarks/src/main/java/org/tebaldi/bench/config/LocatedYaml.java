package org.tebaldi.bench.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.tebaldi.core.config.ConfigException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads one YAML document into a Jackson tree and remembers the 1-based line of every key (and list element) by
 * place, e.g. {@code cluster.networkDelay} or {@code tree.root.children[0]} (the document itself has no line), so
 * that experiment errors can name their line. Scalars become Jackson's natural nodes: whole numbers
 * {@code LongNode}, decimals {@code DoubleNode}, {@code true}/{@code false} booleans, {@code ~} or empty values
 * null, the rest text ({@code 50us}, {@code 5s}, paths).
 */
public final class LocatedYaml {
    private static final YAMLFactory YAML = new YAMLFactory();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * A parsed document.
     *
     * @param root  the document's value; null for an empty document
     * @param lines 1-based line of each key or list element, by place
     */
    public record Document(JsonNode root, Map<String, Integer> lines) {
    }

    private final String source;
    private final Map<String, Integer> lines = new HashMap<>();

    private LocatedYaml(String source) {
        this.source = source;
    }

    /**
     * Parses YAML text.
     *
     * @param source the file name used in messages
     * @throws ConfigException for a YAML syntax error (with line and column), a key written twice in one mapping, or
     *                         a second document in the text
     */
    public static Document parse(String text, String source) {
        LocatedYaml r = new LocatedYaml(source);
        try (JsonParser p = YAML.createParser(text)) {
            if (p.nextToken() == null) {
                return new Document(null, Map.of());
            }
            JsonNode root = r.read(p, "");
            if (p.nextToken() != null) {
                throw new ConfigException(source, p.currentTokenLocation().getLineNr(), "",
                        "a second YAML document starts here", "keep one experiment per file (remove the '---')");
            }
            return new Document(root, r.lines);
        } catch (JsonProcessingException e) {
            throw syntaxError(e, source);
        } catch (IOException e) {
            throw new ConfigException(source, 0, "", "cannot read the YAML text (" + e.getMessage() + ")", null);
        }
    }

    /**
     * Parses the value of a {@code --set key=value} override as YAML: {@code 64} is a number, {@code 10s} text,
     * {@code true} a boolean, {@code {a: 1}} a mapping.
     *
     * @param source the override as the user wrote it, used in messages
     * @throws ConfigException for a value that is not valid YAML
     */
    public static JsonNode parseValue(String text, String source) {
        JsonNode v = parse(text, source).root();
        return v == null ? NODES.nullNode() : v;
    }

    private JsonNode read(JsonParser p, String place) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                ObjectNode o = NODES.objectNode();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    int line = p.currentTokenLocation().getLineNr();
                    String at = Locator.join(place, key);
                    if (o.has(key)) {
                        throw new ConfigException(source, line, at, "key '" + key + "' is written twice (first at line "
                                + lines.get(at) + ")", "keep one '" + key + "'");
                    }
                    lines.put(at, line);
                    p.nextToken();
                    o.set(key, read(p, at));
                }
                return o;
            }
            case START_ARRAY -> {
                ArrayNode a = NODES.arrayNode();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    String at = place + "[" + a.size() + "]";
                    lines.put(at, p.currentTokenLocation().getLineNr());
                    a.add(read(p, at));
                }
                return a;
            }
            case VALUE_NUMBER_INT -> {
                return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                        ? NODES.textNode(p.getText()) : NODES.numberNode(p.getLongValue());
            }
            case VALUE_NUMBER_FLOAT -> {
                return NODES.numberNode(p.getDoubleValue());
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return NODES.booleanNode(t == JsonToken.VALUE_TRUE);
            }
            case VALUE_NULL -> {
                return NODES.nullNode();
            }
            default -> {
                return NODES.textNode(p.getText());
            }
        }
    }

    /**
     * One-line message for a syntax error, at SnakeYAML's problem mark (where the parser gave up). When the construct
     * it was reading began up to two lines earlier (e.g. a key missing its colon), that line is the one named.
     */
    private static ConfigException syntaxError(JsonProcessingException e, String source) {
        int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        int column = e.getLocation() == null ? 0 : e.getLocation().getColumnNr();
        String problem = e.getOriginalMessage() == null ? "unreadable YAML" : e.getOriginalMessage().split("\n")[0];
        int near = line;
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof MarkedYAMLException m) {
                Mark mark = m.getProblemMark() != null ? m.getProblemMark() : m.getContextMark();
                if (mark != null) {
                    line = mark.getLine() + 1;
                    column = mark.getColumn() + 1;
                }
                near = line;
                problem = m.getProblem() != null ? m.getProblem().trim() : problem;
                Mark ctx = m.getContextMark();
                if (m.getContext() != null && ctx != null) {
                    problem += " (" + m.getContext() + " at line " + (ctx.getLine() + 1) + ", column "
                            + (ctx.getColumn() + 1) + ")";
                    if (ctx.getLine() + 1 < line && line - ctx.getLine() - 1 <= 2) {
                        near = ctx.getLine() + 1;
                    }
                } else if (m.getContext() != null) {
                    problem += " (" + m.getContext() + ")";
                }
                break;
            }
        }
        String where = near == line ? "line " + line : "lines " + near + "-" + line;
        return new ConfigException(source, near, "", "YAML syntax error at line " + line + ", column " + column + ": "
                + org.tebaldi.core.config.YamlProblems.plain(problem), "check the indentation (spaces, not tabs), colons, brackets and quotes near "
                + where);
    }
}
