package org.tebaldi.bench.burn;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.tree.TreeSpec;

/**
 * Smaller trees for the {@link Shrinker}: for each inner node (top-down), the tree with that node collapsed into a
 * leaf of the same mechanism over every transaction type below it (without options only inner nodes take). Whether
 * a candidate is valid is the scenario check's business.
 */
final class TreeShrink {
    private TreeShrink() {
    }

    /** The candidates for {@code yaml} (tree file format), largest reduction first. */
    static List<String> candidates(String yaml) {
        TreeSpec root = TreeLoader.readSpec(yaml, "scenario tree");
        List<String> out = new ArrayList<>();
        int inner = count(root);
        for (int i = 0; i < inner; i++) {
            TreeSpec copy = root.copy();
            collapse(copy, new int[] {i});
            out.add(TreeLoader.toYaml(copy));
        }
        return out;
    }

    private static int count(TreeSpec s) {
        if (s.children.isEmpty()) {
            return 0;
        }
        int n = 1;
        for (TreeSpec c : s.children) {
            n += count(c);
        }
        return n;
    }

    /** Collapses the {@code left[0]}-th inner node in pre-order; true once done. */
    private static boolean collapse(TreeSpec s, int[] left) {
        if (s.children.isEmpty()) {
            return false;
        }
        if (left[0]-- == 0) {
            List<String> txns = new ArrayList<>();
            types(s, txns);
            s.children.clear();
            s.txns = txns;
            if ("tso".equals(s.cc)) {
                s.options.remove("batchInterval");
            }
            return true;
        }
        for (TreeSpec c : s.children) {
            if (collapse(c, left)) {
                return true;
            }
        }
        return false;
    }

    private static void types(TreeSpec s, List<String> out) {
        out.addAll(s.txns);
        s.children.forEach(c -> types(c, out));
    }
}
