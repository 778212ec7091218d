package org.tebaldi.core.tree;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.config.ConfigException;

/**
 * Turns a located YAML value into a {@link TreeSpec} (docs/trees.md, tree format), checking only the shape: known
 * keys, mappings and lists where they belong. Meaning (mechanisms, types, composability) is
 * {@link TreeValidator}'s job. Records the line of every key it reads, by place (e.g.
 * {@code root.children[1].txns[0]}), so the validator can point at the exact line.
 */
final class SpecReader {
    /** Keys a tree node may have. */
    static final List<String> NODE_KEYS = List.of("cc", "name", "options", "children", "txns", "instanceBy");

    private final String source;
    private final Map<String, Integer> lines = new HashMap<>();

    private SpecReader(String source) {
        this.source = source;
    }

    /** A spec and the lines of its keys by place. */
    record Result(TreeSpec spec, Map<String, Integer> lines) {
    }

    /**
     * Reads a tree document: a mapping with the single key {@code root}, or the root node mapping itself.
     *
     * @param doc the document, null if empty
     * @throws ConfigException naming the line and place of the first shape problem
     */
    static Result read(YamlNode doc, String source) {
        SpecReader r = new SpecReader(source);
        if (doc == null || doc.kind == YamlNode.Kind.SCALAR && doc.scalar == null) {
            throw new ConfigException(source, 0, "", "the tree is empty",
                    "write the tree under 'root:', e.g. root: {cc: 2pl, txns: [new_order, payment]}");
        }
        if (doc.kind != YamlNode.Kind.MAP) {
            throw new ConfigException(source, doc.line, "", "a tree must be a mapping with the key 'root', found "
                    + doc.describe(), "write the tree under 'root:', e.g. root: {cc: 2pl, txns: [new_order, payment]}");
        }
        YamlNode.Entry root = doc.map.get("root");
        if (root == null && doc.map.keySet().stream().anyMatch(NODE_KEYS::contains)) {
            return new Result(r.node(doc, "root"), r.lines);
        }
        for (Map.Entry<String, YamlNode.Entry> e : doc.map.entrySet()) {
            if (!e.getKey().equals("root")) {
                throw new ConfigException(source, e.getValue().keyLine(), "", "unknown top-level key '" + e.getKey()
                        + "'", "a tree file has the single top-level key 'root' holding the root node");
            }
        }
        if (root == null) {
            throw new ConfigException(source, doc.line, "", "the tree is an empty mapping",
                    "write the tree under 'root:', e.g. root: {cc: 2pl, txns: [new_order, payment]}");
        }
        r.lines.put("root", root.keyLine());
        return new Result(r.node(root.value(), "root"), r.lines);
    }

    private TreeSpec node(YamlNode n, String place) {
        if (n.kind != YamlNode.Kind.MAP) {
            throw new ConfigException(source, n.line, place, "a tree node must be a mapping such as "
                    + "{cc: 2pl, txns: [...]}, found " + n.describe(), "write the node as a mapping with at least 'cc'");
        }
        TreeSpec s = new TreeSpec();
        s.place = place;
        s.line = n.line;
        for (Map.Entry<String, YamlNode.Entry> e : n.map.entrySet()) {
            String key = e.getKey();
            YamlNode v = e.getValue().value();
            String at = place + "." + key;
            lines.put(at, e.getValue().keyLine());
            switch (key) {
                case "cc" -> s.cc = text(v, at, "a mechanism name such as 2pl");
                case "name" -> s.name = text(v, at, "a display name");
                case "instanceBy" -> s.instanceBy = text(v, at, "the name of a transaction input");
                case "options" -> s.options.putAll(options(v, at));
                case "txns" -> s.txns.addAll(txns(v, at));
                case "children" -> s.children.addAll(children(v, at));
                default -> throw new ConfigException(source, e.getValue().keyLine(), place, "unknown key '" + key + "'",
                        "use only " + String.join(", ", NODE_KEYS) + Suggest.didYouMean(key, NODE_KEYS));
            }
        }
        return s;
    }

    /** A scalar as text; null stays null (reported later as missing where that matters). */
    private String text(YamlNode v, String at, String what) {
        if (v.kind != YamlNode.Kind.SCALAR) {
            throw new ConfigException(source, v.line, at, "expected " + what + ", found " + v.describe(),
                    "write a single value");
        }
        return v.scalar == null ? null : String.valueOf(v.scalar);
    }

    private Map<String, Object> options(YamlNode v, String at) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        if (v.kind == YamlNode.Kind.SCALAR && v.scalar == null) {
            return m;
        }
        if (v.kind != YamlNode.Kind.MAP) {
            throw new ConfigException(source, v.line, at, "options must be a mapping, found " + v.describe(),
                    "write options as a mapping, e.g. options: {batchInterval: 5ms}");
        }
        for (Map.Entry<String, YamlNode.Entry> e : v.map.entrySet()) {
            String key = at + "." + e.getKey();
            lines.put(key, e.getValue().keyLine());
            Object value = e.getValue().value().toJava();
            if (value == null) {
                throw new ConfigException(source, e.getValue().keyLine(), key, "option '" + e.getKey()
                        + "' has no value", "give it a value or remove it to use the default");
            }
            m.put(e.getKey(), value);
        }
        return m;
    }

    private List<String> txns(YamlNode v, String at) {
        List<String> out = new ArrayList<>();
        if (v.kind == YamlNode.Kind.SCALAR && v.scalar == null) {
            return out;
        }
        if (v.kind != YamlNode.Kind.LIST) {
            throw new ConfigException(source, v.line, at, "txns must be a list of transaction types, found "
                    + v.describe(), "write e.g. txns: [new_order, payment]");
        }
        for (int i = 0; i < v.list.size(); i++) {
            YamlNode t = v.list.get(i);
            String item = at + "[" + i + "]";
            lines.put(item, t.line);
            if (t.kind != YamlNode.Kind.SCALAR || t.scalar == null || String.valueOf(t.scalar).isBlank()) {
                throw new ConfigException(source, t.line, item, "expected a transaction type name, found "
                        + t.describe(), "list transaction type names, e.g. txns: [new_order, payment]");
            }
            out.add(String.valueOf(t.scalar));
        }
        return out;
    }

    private List<TreeSpec> children(YamlNode v, String at) {
        List<TreeSpec> out = new ArrayList<>();
        if (v.kind == YamlNode.Kind.SCALAR && v.scalar == null) {
            return out;
        }
        if (v.kind != YamlNode.Kind.LIST) {
            throw new ConfigException(source, v.line, at, "children must be a list of nodes, found " + v.describe(),
                    "write each child as a list item, e.g. children: [{cc: rp, txns: [delivery]}]");
        }
        for (int i = 0; i < v.list.size(); i++) {
            out.add(node(v.list.get(i), at + "[" + i + "]"));
        }
        return out;
    }
}
