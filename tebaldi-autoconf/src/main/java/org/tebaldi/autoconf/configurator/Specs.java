package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/** Copying and editing tree specs — the tree surgery the strategies need. Package-private. */
final class Specs {
    private Specs() {
    }

    /** A deep copy without node ids ({@link TreeSpec#copy}). */
    static TreeSpec copy(TreeSpec s) {
        return s.copy();
    }

    /** The spec node at the position of {@code node} in {@code root} (same pre-order path), in a copy. */
    static TreeSpec at(TreeSpec root, CcNode node) {
        List<Integer> route = new ArrayList<>();
        for (CcNode n = node; n.parent() != null; n = n.parent()) {
            route.add(0, n.parent().children().indexOf(n));
        }
        TreeSpec s = root;
        for (int i : route) {
            s = s.children.get(i);
        }
        return s;
    }

    /** The parent spec of {@code target} in {@code root}, or null for the root. */
    static TreeSpec parentOf(TreeSpec root, TreeSpec target) {
        for (TreeSpec c : root.children) {
            if (c == target) {
                return root;
            }
            TreeSpec p = parentOf(c, target);
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    /** Replaces {@code target} by {@code with} (in place when target is the root: its fields are overwritten). */
    static void replace(TreeSpec root, TreeSpec target, TreeSpec with) {
        TreeSpec p = parentOf(root, target);
        if (p == null) {
            target.cc = with.cc;
            target.name = with.name;
            target.options = with.options;
            target.txns = with.txns;
            target.children = with.children;
            target.instanceBy = with.instanceBy;
        } else {
            p.children.set(p.children.indexOf(target), with);
        }
    }

    /** Removes type {@code type} from its leaf, and the leaf from its parent if it became empty. */
    static void removeType(TreeSpec root, String type) {
        TreeSpec leaf = leafOf(root, type);
        leaf.txns.remove(type);
        TreeSpec p = leaf.txns.isEmpty() ? parentOf(root, leaf) : null;
        if (p != null) {
            p.children.remove(leaf);
        }
    }

    /** The tree with every inner node that has a single child replaced by that child. */
    static TreeSpec normalize(TreeSpec s) {
        List<TreeSpec> kids = new ArrayList<>();
        for (TreeSpec c : s.children) {
            kids.add(normalize(c));
        }
        s.children = kids;
        return kids.size() == 1 ? kids.get(0) : s;
    }

    /** The leaf spec holding {@code type}, or null. */
    static TreeSpec leafOf(TreeSpec s, String type) {
        if (s.txns.contains(type)) {
            return s;
        }
        for (TreeSpec c : s.children) {
            TreeSpec l = leafOf(c, type);
            if (l != null) {
                return l;
            }
        }
        return null;
    }

    /** A leaf of mechanism {@code cc} with the given types and no options. */
    static TreeSpec leaf(String cc, List<String> types) {
        return TreeSpec.leaf(cc, types.toArray(new String[0]));
    }

    /** Builds a tree (structure only) from a normalized copy of a spec. */
    static CcTree build(TreeSpec s, String source) {
        return CcTree.build(normalize(copy(s)).placeAt("root"), source);
    }
}
