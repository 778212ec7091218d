package org.tebaldi.core.tree;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.tebaldi.core.config.ConfigException;

/**
 * Writes a tree in the file format that {@link TreeLoader} reads (docs/trees.md): block mappings for nodes, flow
 * style for {@code options} and {@code txns}. Strings are written plain when they read back as the same string,
 * otherwise double-quoted.
 */
final class TreeWriter {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_µ][A-Za-z0-9_.\\-/µ]*");

    private TreeWriter() {
    }

    /** The YAML text: {@code root:} and the nodes below, ending with a newline. */
    static String write(TreeSpec root) {
        StringBuilder b = new StringBuilder("root:\n");
        node(b, root, "  ", "  ");
        return b.toString();
    }

    /**
     * @param first  prefix of the node's first line (e.g. {@code "    - "})
     * @param indent prefix of its other lines
     */
    private static void node(StringBuilder b, TreeSpec s, String first, String indent) {
        String[] pre = {first};
        key(b, pre, indent, "cc", scalar(s.cc));
        if (s.name != null) {
            key(b, pre, indent, "name", scalar(s.name));
        }
        if (s.options != null && !s.options.isEmpty()) {
            key(b, pre, indent, "options", value(s.options));
        }
        if (s.instanceBy != null) {
            key(b, pre, indent, "instanceBy", scalar(s.instanceBy));
        }
        if (s.txns != null && !s.txns.isEmpty()) {
            key(b, pre, indent, "txns", value(s.txns));
        }
        if (s.children != null && !s.children.isEmpty()) {
            key(b, pre, indent, "children", null);
            for (TreeSpec c : s.children) {
                node(b, c, indent + "  - ", indent + "    ");
            }
        }
    }

    private static void key(StringBuilder b, String[] pre, String indent, String key, String value) {
        b.append(pre[0]).append(key).append(':');
        if (value != null) {
            b.append(' ').append(value);
        }
        b.append('\n');
        pre[0] = indent;
    }

    private static String value(Object v) {
        if (v instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder("{");
            m.forEach((k, x) -> b.append(b.length() > 1 ? ", " : "").append(scalar(String.valueOf(k))).append(": ")
                    .append(value(x)));
            return b.append('}').toString();
        }
        if (v instanceof List<?> l) {
            StringBuilder b = new StringBuilder("[");
            l.forEach(x -> b.append(b.length() > 1 ? ", " : "").append(value(x)));
            return b.append(']').toString();
        }
        if (v instanceof Number || v instanceof Boolean) {
            return String.valueOf(v);
        }
        return scalar(v == null ? null : String.valueOf(v));
    }

    /** A string as a YAML scalar that reads back as the same string. */
    static String scalar(String s) {
        if (s == null) {
            return "null";
        }
        if (PLAIN.matcher(s).matches() && readsBackAsString(s)) {
            return s;
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }

    /** True if the plain scalar {@code s} is read back as that string (not a number, boolean or null). */
    private static boolean readsBackAsString(String s) {
        try {
            YamlNode n = YamlNode.parse("k: " + s + "\n", "<scalar>");
            return n != null && n.kind == YamlNode.Kind.MAP && s.equals(n.map.get("k").value().scalar);
        } catch (ConfigException e) {
            return false;
        }
    }
}
