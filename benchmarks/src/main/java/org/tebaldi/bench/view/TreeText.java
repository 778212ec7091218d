package org.tebaldi.bench.view;

import java.util.List;
import java.util.Map;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.NodeState;

/**
 * A CC tree as indented text for the console ({@code tebaldi tree}, docs/experiments.md "Looking at runs"): one line per node —
 * mechanism, name, options, and at a leaf its transaction types (with {@code by INPUT} for partition-by-instance) —
 * children below their parent with box-drawing branches, e.g.
 * <pre>
 * ssi
 * ├─ none  [order_status, stock_level]
 * └─ 2pl
 *    ├─ rp  [new_order, payment]
 *    └─ rp  [delivery]
 * </pre>
 * A draining subtree is marked {@code (draining)}, a retired one {@code (retired)}.
 */
public final class TreeText {
    private TreeText() {
    }

    /** The tree's lines, each ending with a newline. */
    public static String of(CcTree tree) {
        StringBuilder b = new StringBuilder();
        b.append(label(tree.root())).append('\n');
        List<CcNode> kids = tree.root().children();
        for (int i = 0; i < kids.size(); i++) {
            append(kids.get(i), "", i == kids.size() - 1, b);
        }
        return b.toString();
    }

    private static void append(CcNode n, String indent, boolean last, StringBuilder b) {
        b.append(indent).append(last ? "└─ " : "├─ ").append(label(n)).append('\n');
        String next = indent + (last ? "   " : "│  ");
        List<CcNode> kids = n.children();
        for (int i = 0; i < kids.size(); i++) {
            append(kids.get(i), next, i == kids.size() - 1, b);
        }
    }

    /** One node's line: {@code mechanism "name" {options}  [types by input]  (state)}. */
    static String label(CcNode n) {
        StringBuilder b = new StringBuilder(n.mechanism());
        if (n.name() != null) {
            b.append(" \"").append(n.name()).append('"');
        }
        if (!n.options().isEmpty()) {
            b.append(' ').append(options(n.options()));
        }
        if (n.isLeaf()) {
            b.append("  [").append(String.join(", ", n.txns()));
            if (n.instanceBy() != null) {
                b.append(" by ").append(n.instanceBy());
            }
            b.append(']');
        }
        if (n.state() != NodeState.ACTIVE) {
            b.append("  (").append(n.state().name().toLowerCase(java.util.Locale.ROOT)).append(')');
        }
        return b.toString();
    }

    /** {@code {key: value, ...}} in the options' order. */
    static String options(Map<String, Object> options) {
        StringBuilder b = new StringBuilder("{");
        options.forEach((k, v) -> b.append(b.length() > 1 ? ", " : "").append(k).append(": ").append(v));
        return b.append('}').toString();
    }
}
