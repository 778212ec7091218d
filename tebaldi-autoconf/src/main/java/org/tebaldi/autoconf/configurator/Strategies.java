package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * The optimization stage's proposals for one bottleneck conflict edge (dissertation §5.4.1), kept as local as
 * possible to the two transaction types involved:
 * <ul>
 *   <li>same type (Fig 5.7): T1 moves to a new leaf of mechanism M under a node of the original mechanism, which
 *       keeps regulating T1 against the leaf's other types;</li>
 *   <li>same group, two types (Fig 5.8): a new node of mechanism M regulates T1 against T2, each in its own leaf of
 *       the original mechanism, under a node of the original mechanism holding the leaf's other types;</li>
 *   <li>distinct groups (Fig 5.9): T2 (or T1) moves beneath a node on the path from the lowest common ancestor to the
 *       other type's group (a), or a new node of mechanism M is created on that path with T2 (or T1) beneath it
 *       (b).</li>
 * </ul>
 * M ranges over the given mechanisms. Candidates are deduplicated ({@link CcTree#canonical()}: child order does not
 * matter) and the current tree is never proposed; filters and preprocessing come after
 * ({@link Filters}, {@link Preprocessing}).
 */
public final class Strategies {
    private Strategies() {
    }

    /** Candidate trees for the conflict between {@code t1} and {@code t2} (equal for a same-type bottleneck). */
    public static List<Candidate> propose(CcTree tree, String t1, String t2, List<String> mechanisms) {
        Map<String, Candidate> out = new LinkedHashMap<>();
        CcNode l1 = tree.leafFor(t1);
        CcNode l2 = tree.leafFor(t2);
        if (l1 == null || l2 == null) {
            throw new IllegalArgumentException("type " + (l1 == null ? t1 : t2) + " is in no leaf of " + tree.describe());
        }
        if (t1.equals(t2)) {
            sameType(tree, l1, t1, mechanisms, out);
        } else if (l1 == l2) {
            sameGroup(tree, l1, t1, t2, mechanisms, out);
        } else {
            distinctGroups(tree, l1, t1, l2, t2, mechanisms, out);
            distinctGroups(tree, l2, t2, l1, t1, mechanisms, out);
        }
        out.remove(tree.canonical());
        return new ArrayList<>(out.values());
    }

    private static void add(Map<String, Candidate> out, TreeSpec s, String strategy) {
        CcTree t = Specs.build(s, strategy);
        out.putIfAbsent(t.canonical(), new Candidate(t, strategy));
    }

    private static void sameType(CcTree tree, CcNode leaf, String t1, List<String> mechs, Map<String, Candidate> out) {
        for (String m : mechs) {
            TreeSpec root = tree.toSpec();
            TreeSpec l = Specs.at(root, leaf);
            List<String> others = new ArrayList<>(l.txns);
            others.remove(t1);
            TreeSpec mine = Specs.leaf(m, List.of(t1));
            TreeSpec with = others.isEmpty() ? mine
                    : withOptions(TreeSpec.inner(l.cc, mine, withOptions(Specs.leaf(l.cc, others), l)), l);
            Specs.replace(root, l, with);
            add(out, root, "same type " + t1 + ": " + m + " for its instances (Fig 5.7)");
        }
    }

    private static TreeSpec withOptions(TreeSpec s, TreeSpec from) {
        s.options.putAll(from.options);
        return s;
    }

    private static void sameGroup(CcTree tree, CcNode leaf, String t1, String t2, List<String> mechs,
                                  Map<String, Candidate> out) {
        for (String m : mechs) {
            TreeSpec root = tree.toSpec();
            TreeSpec l = Specs.at(root, leaf);
            List<String> others = new ArrayList<>(l.txns);
            others.remove(t1);
            others.remove(t2);
            TreeSpec pair = TreeSpec.inner(m, withOptions(Specs.leaf(l.cc, List.of(t1)), l),
                    withOptions(Specs.leaf(l.cc, List.of(t2)), l));
            TreeSpec with = others.isEmpty() ? pair
                    : withOptions(TreeSpec.inner(l.cc, pair, withOptions(Specs.leaf(l.cc, others), l)), l);
            Specs.replace(root, l, with);
            add(out, root, "same group " + t1 + "/" + t2 + ": " + m + " between them (Fig 5.8)");
        }
    }

    /** Moves {@code mover} (from leaf {@code from}) under the path from the LCA towards {@code stay}'s leaf. */
    private static void distinctGroups(CcTree tree, CcNode stayLeaf, String stay, CcNode from, String mover,
                                       List<String> mechs, Map<String, Candidate> out) {
        CcNode lca = lca(stayLeaf, from);
        List<CcNode> path = new ArrayList<>();
        for (CcNode n = stayLeaf; n != lca; n = n.parent()) {
            path.add(0, n);
        }
        path.add(0, lca);
        String moverCc = from.mechanism();
        // (a) beneath an existing node of the path: its mechanism then regulates stay vs mover
        for (CcNode n : path) {
            TreeSpec root = tree.toSpec();
            TreeSpec target = Specs.at(root, n);
            Specs.removeType(root, mover);
            if (target.children.isEmpty() && !target.txns.isEmpty()) {
                if (!target.txns.contains(mover)) {
                    target.txns.add(mover);
                }
            } else {
                target.children.add(Specs.leaf(moverCc, List.of(mover)));
            }
            add(out, root, "distinct groups " + stay + "/" + mover + ": move " + mover + " beneath " + n.mechanism()
                    + "#" + n.id() + " (Fig 5.9a)");
        }
        // (b) a new node of mechanism m on the path, with the mover beneath it
        for (int i = 1; i < path.size(); i++) {
            CcNode below = path.get(i);
            for (String m : mechs) {
                TreeSpec root = tree.toSpec();
                TreeSpec sub = Specs.at(root, below);
                Specs.removeType(root, mover);
                Specs.replace(root, sub, TreeSpec.inner(m, Specs.copy(sub), Specs.leaf(moverCc, List.of(mover))));
                add(out, root, "distinct groups " + stay + "/" + mover + ": new " + m + " above " + below.mechanism()
                        + "#" + below.id() + " with " + mover + " (Fig 5.9b)");
            }
        }
    }

    private static CcNode lca(CcNode a, CcNode b) {
        for (CcNode x = a; x != null; x = x.parent()) {
            for (CcNode y = b; y != null; y = y.parent()) {
                if (x == y) {
                    return x;
                }
            }
        }
        throw new IllegalStateException("nodes of different trees");
    }
}
