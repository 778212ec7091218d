package org.tebaldi.core.tree;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.db.TxnType;

/**
 * Checks what a tree means (docs/trees.md, bad-input rule): every problem is one {@link ConfigException} naming the
 * file, line, place and fix. Checks, in document order: each node has a {@code cc} naming a known mechanism;
 * children or txns but not both; {@code instanceBy} only on a leaf and naming an input all its types have; each
 * transaction type in one leaf, known to the database, and read-only if the leaf is {@code none}; no forbidden
 * parent/child pair ({@link CompositionRules}; dissertation §4.3.2). Then every database type must be in some
 * leaf, and each mechanism checks its node's options ({@link Mechanism#checkOptions}). Inefficient pairs, and
 * pairs the rules do not cover, become warnings.
 */
public final class TreeValidator {
    private static final Pattern OPTION = Pattern.compile("option '([^']+)'");

    private final String source;
    private final TreeContext ctx;
    private final Map<String, Integer> lines;
    private final Map<String, TreeSpec> leafOfType = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();

    private TreeValidator(String source, TreeContext ctx, Map<String, Integer> lines) {
        this.source = source;
        this.ctx = ctx;
        this.lines = lines;
    }

    /**
     * Validates a spec built in code (lines as recorded in the spec, usually 0) and builds the tree. Recomputes
     * the places of {@code root}'s subtree ({@link TreeSpec#placeAt}).
     *
     * @param source name used in messages, e.g. {@code <autoconf>}
     * @return the tree and its warnings
     * @throws ConfigException for the first problem found
     */
    public static LoadedTree validate(TreeSpec root, String source, TreeContext ctx) {
        root.placeAt("root");
        return validate(root, source, ctx, Map.of());
    }

    /** As {@link #validate(TreeSpec, String, TreeContext)}, with key lines by place from {@link SpecReader}. */
    static LoadedTree validate(TreeSpec root, String source, TreeContext ctx, Map<String, Integer> lines) {
        TreeValidator v = new TreeValidator(source, ctx, lines);
        v.node(root, null);
        v.coverage(root);
        CcTree tree;
        try {
            tree = CcTree.build(root, source);
        } catch (IllegalArgumentException e) { // the checks above make this unreachable; never show a trace
            throw new ConfigException(source, root.line, "", e.getMessage(), null);
        }
        for (CcNode n : tree.nodes()) {
            v.options(n);
        }
        return new LoadedTree(tree, v.warnings);
    }

    private int line(String place, int fallback) {
        Integer l = lines.get(place);
        return l == null || l == 0 ? fallback : l;
    }

    private ConfigException error(int line, String place, String problem, String fix) {
        return new ConfigException(source, line, place, problem, fix);
    }

    private void node(TreeSpec s, TreeSpec parent) {
        String p = s.place;
        if (s.cc == null || s.cc.isBlank()) {
            throw error(s.line, p, "missing 'cc' (the node's mechanism)", "add cc: <mechanism>"
                    + (ctx.mechanisms().isEmpty() ? "" : ", one of " + known()));
        }
        if (!ctx.mechanisms().containsKey(s.cc)) {
            throw error(line(p + ".cc", s.line), p + ".cc", "unknown mechanism '" + s.cc + "'",
                    ctx.mechanisms().isEmpty() ? "no mechanisms are on the class path: add tebaldi-cc"
                            : "use one of " + known() + Suggest.didYouMean(s.cc, ctx.mechanisms().keySet()));
        }
        boolean kids = s.children != null && !s.children.isEmpty();
        boolean txns = s.txns != null && !s.txns.isEmpty();
        if (kids && txns) {
            throw error(s.line, p, "a node has both children and txns",
                    "an inner node lists children, a leaf lists txns: move the txns into a child leaf");
        }
        if (!kids && !txns) {
            throw error(s.line, p, "a node has neither children nor txns",
                    "give an inner node children: [...] or a leaf txns: [...]");
        }
        if (kids && s.instanceBy != null) {
            throw error(line(p + ".instanceBy", s.line), p + ".instanceBy", "instanceBy on an inner node "
                    + "(partition-by-instance splits one leaf group, dissertation §5.4.2)",
                    "move instanceBy to a leaf below, or remove it");
        }
        if (parent != null) {
            pair(parent, s);
        }
        if (kids) {
            for (TreeSpec c : s.children) {
                node(c, s);
            }
        } else {
            leaf(s);
        }
    }

    private void pair(TreeSpec parent, TreeSpec child) {
        CompositionRules rules = ctx.rules();
        CompositionRule r = rules.rule(parent.cc, child.cc);
        if (r == null) {
            warnings.add(warning(child, "no composability rule for '" + parent.cc + "' over '" + child.cc + "' in "
                    + rules.source() + "; assuming the pair works"));
        } else if (r.verdict() == Verdict.FORBIDDEN) {
            String fix = r.fix() != null ? r.fix() : suggestion(rules, parent.cc, child.cc);
            throw error(child.line, child.place, "'" + child.cc + "' cannot be a child of '" + parent.cc + "' ("
                    + parent.place + "): " + r.reason(), fix);
        } else if (r.verdict() == Verdict.INEFFICIENT) {
            warnings.add(warning(child, "'" + child.cc + "' under '" + parent.cc + "' (" + parent.place
                    + ") is inefficient: " + r.reason()));
        }
    }

    private static String suggestion(CompositionRules rules, String parent, String child) {
        List<String> parents = rules.parentsOf(child, EnumSet.of(Verdict.ALLOWED));
        if (parents.isEmpty()) {
            parents = rules.parentsOf(child, EnumSet.of(Verdict.ALLOWED, Verdict.INEFFICIENT));
        }
        List<String> kids = rules.childrenOf(parent, EnumSet.of(Verdict.ALLOWED));
        StringBuilder b = new StringBuilder();
        if (!parents.isEmpty()) {
            b.append("put '").append(child).append("' under a parent such as ").append(String.join(", ", parents));
        }
        if (!kids.isEmpty()) {
            b.append(b.length() > 0 ? ", or " : "").append("give '").append(parent).append("' a child it accepts: ")
                    .append(String.join(", ", kids));
        }
        return b.toString();
    }

    private void leaf(TreeSpec s) {
        Database db = ctx.database();
        for (int i = 0; i < s.txns.size(); i++) {
            String t = s.txns.get(i);
            String at = s.place + ".txns[" + i + "]";
            int l = line(at, line(s.place + ".txns", s.line));
            TreeSpec prev = leafOfType.putIfAbsent(t, s);
            if (prev == s) {
                throw error(l, at, "transaction type '" + t + "' is listed twice in this leaf", "list it once");
            }
            if (prev != null) {
                throw error(l, at, "transaction type '" + t + "' is also in " + prev.place
                        + (prev.line > 0 ? " (line " + prev.line + ")" : ""), "keep each transaction type in one leaf");
            }
            if (db == null) {
                continue;
            }
            if (!db.hasType(t)) {
                List<String> names = db.types().stream().map(TxnType::name).toList();
                throw error(l, at, "unknown transaction type '" + t + "'", "use the database's types: "
                        + String.join(", ", names) + Suggest.didYouMean(t, names));
            }
            TxnType type = db.type(t);
            Mechanism m = ctx.mechanisms().get(s.cc);
            if (m != null && m.readOnlyLeaf() && !type.readOnly()) {
                throw error(l, at, "transaction type '" + t + "' writes, but a '" + s.cc + "' leaf runs no "
                        + "concurrency control and may hold only read-only types", "move '" + t + "' to a leaf with a "
                        + "mechanism such as 2pl");
            }
            if (s.instanceBy != null && !type.params().contains(s.instanceBy)) {
                throw error(line(s.place + ".instanceBy", s.line), s.place + ".instanceBy", "transaction type '" + t
                        + "' has no input '" + s.instanceBy + "' (its inputs: " + String.join(", ", type.params())
                        + ")", "name an input every type of this leaf has, or move '" + t + "' to another leaf");
            }
        }
    }

    private void coverage(TreeSpec root) {
        if (ctx.database() == null) {
            return;
        }
        List<String> missing = ctx.database().types().stream().map(TxnType::name)
                .filter(t -> !leafOfType.containsKey(t)).toList();
        if (missing.size() == 1) {
            throw error(line("root", root.line), "root", "transaction type '" + missing.get(0) + "' is in no leaf",
                    "add '" + missing.get(0) + "' to the txns of one leaf");
        }
        if (missing.size() > 1) {
            throw error(line("root", root.line), "root", "transaction types '" + String.join("', '", missing)
                    + "' are in no leaf", "add each to the txns of one leaf");
        }
    }

    private void options(CcNode n) {
        Mechanism m = ctx.mechanisms().get(n.mechanism());
        List<String> problems;
        try {
            problems = m.checkOptions(n);
        } catch (RuntimeException e) {
            problems = List.of("options rejected (" + e.getMessage() + ")");
        }
        if (problems == null || problems.isEmpty()) {
            return;
        }
        String problem = problems.get(0);
        String place = n.place() + ".options";
        Matcher o = OPTION.matcher(problem);
        if (o.find() && n.options().containsKey(o.group(1))) {
            place += "." + o.group(1);
        }
        throw error(line(place, line(n.place() + ".options", n.line())), place, problem,
                "correct the option or remove it to use " + n.mechanism() + "'s default");
    }

    private String known() {
        return String.join(", ", ctx.mechanisms().keySet());
    }

    private String warning(TreeSpec at, String text) {
        return (source == null ? "<input>" : source) + (at.line > 0 ? ":" + at.line : "") + ": " + at.place + ": "
                + text;
    }
}
