package org.tebaldi.bench.view;

import java.util.List;
import java.util.Map;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.NodeState;

/**
 * A CC tree in Graphviz's DOT language (graphviz.org/doc/info/lang.html), drawn top-down: one box per node with its
 * mechanism in bold, its name and options below, and at a leaf its transaction types (with {@code by INPUT} for
 * partition-by-instance); a node is filled with its mechanism's colour (one per registered mechanism), and a draining or retired subtree is dashed
 * and grey. Node names in the DOT text are {@code n<id>} (the tree's node ids). {@link Graphviz} turns the text into
 * SVG or PNG.
 */
public final class TreeDot {
    /** Pastel fills, given to the registered mechanisms in name order (no mechanism is named here). */
    private static final List<String> PALETTE = List.of("#cfe2f3", "#d9ead3", "#fff2cc", "#f4cccc", "#ead1dc",
            "#d9d2e9", "#fce5cd", "#d0e0e3", "#e6d5c3", "#d5e8e0");
    /** The fill of a mechanism that regulates nothing ({@code Mechanism#readOnlyLeaf}). */
    private static final String PLAIN = "#eeeeee";
    /** The fill of a mechanism that is not registered. */
    private static final String OTHER = "#ffffff";
    private static final Map<String, String> FILL = fills();

    private TreeDot() {
    }

    private static Map<String, String> fills() {
        Map<String, String> m = new java.util.HashMap<>();
        int i = 0;
        for (Map.Entry<String, org.tebaldi.core.cc.Mechanism> e : org.tebaldi.core.cc.Mechanisms.all().entrySet()) {
            m.put(e.getKey(), e.getValue().readOnlyLeaf() ? PLAIN : PALETTE.get(i++ % PALETTE.size()));
        }
        return m;
    }

    /**
     * The DOT text of {@code tree}.
     *
     * @param title shown above the tree (e.g. the file or the run); null or blank for none
     */
    public static String of(CcTree tree, String title) {
        StringBuilder b = new StringBuilder("digraph cc_tree {\n");
        b.append("  graph [rankdir=TB, nodesep=0.3, ranksep=0.45, fontname=\"Helvetica\"");
        if (title != null && !title.isBlank()) {
            b.append(", label=\"").append(esc(title)).append("\", labelloc=t, fontsize=14");
        }
        b.append("];\n");
        b.append("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=12, "
                + "margin=\"0.15,0.06\"];\n");
        b.append("  edge [arrowhead=none, color=\"#555555\"];\n");
        for (CcNode n : tree.nodes()) {
            b.append("  n").append(n.id()).append(" [label=<").append(label(n)).append(">, fillcolor=\"")
                    .append(n.state() == NodeState.ACTIVE ? FILL.getOrDefault(n.mechanism(), OTHER) : "#f3f3f3")
                    .append('"');
            if (n.state() != NodeState.ACTIVE) {
                b.append(", style=\"rounded,filled,dashed\", fontcolor=\"#777777\"");
            }
            b.append("];\n");
        }
        for (CcNode n : tree.nodes()) {
            for (CcNode c : n.children()) {
                b.append("  n").append(n.id()).append(" -> n").append(c.id());
                if (c.state() != NodeState.ACTIVE) {
                    b.append(" [style=dashed]");
                }
                b.append(";\n");
            }
        }
        return b.append("}\n").toString();
    }

    /** An HTML-like label: bold mechanism, then name, options, types and state, one per line. */
    private static String label(CcNode n) {
        StringBuilder b = new StringBuilder("<B>").append(html(n.mechanism())).append("</B>");
        if (n.name() != null) {
            b.append("<BR/><I>").append(html(n.name())).append("</I>");
        }
        if (!n.options().isEmpty()) {
            b.append("<BR/><FONT POINT-SIZE=\"10\">").append(html(TreeText.options(n.options()))).append("</FONT>");
        }
        if (n.isLeaf()) {
            for (String t : n.txns()) {
                b.append("<BR/>").append(html(t));
            }
            if (n.instanceBy() != null) {
                b.append("<BR/><FONT POINT-SIZE=\"10\">by ").append(html(n.instanceBy())).append("</FONT>");
            }
        }
        if (n.state() != NodeState.ACTIVE) {
            b.append("<BR/><FONT POINT-SIZE=\"10\">(").append(n.state().name().toLowerCase(java.util.Locale.ROOT))
                    .append(")</FONT>");
        }
        return b.toString();
    }

    private static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
