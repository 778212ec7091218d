package org.tebaldi.autoconf.reconfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.NodeState;
import org.tebaldi.core.tree.TreeSpec;

/**
 * How to reach a target tree with the online update protocol (dissertation §5.5.2, Fig 5.10): the lowest node
 * {@code replaced} of the running tree whose subtree holds every change, moved up until its parent accepts a new
 * child group ({@link Mechanism#acceptsNewChildren}); the {@code merged} tree, where the target's version of that
 * subtree is a new child of the parent and the old subtree drains; and the {@code retired} tree, the same once the
 * old subtree is retired. Node ids of the running tree are kept in both; the new subtree gets fresh ids. Child order
 * does not matter when trees are compared.
 *
 * @param replaced id of the old subtree's root in the running tree
 * @param parent   id of its parent, the node regulating old against new transactions meanwhile
 */
public record OnlineUpdatePlan(int replaced, int parent, CcTree merged, CcTree retired) {
    /** Outcome of planning: a plan, or why the online update cannot be used (then partial restart applies). */
    public record Result(OnlineUpdatePlan plan, String whyNot) {
    }

    /**
     * Plans the update of {@code running} (possibly holding retired subtrees of earlier updates) to {@code target}
     * (a loaded tree).
     *
     * @return a plan; or, in {@code whyNot}, "no change" or why no node below the root can take the change
     */
    public static Result of(CcTree running, CcTree target, Function<String, Mechanism> mechanisms) {
        List<CcNode> stack = new ArrayList<>();
        List<TreeSpec> counterpart = new ArrayList<>();
        CcNode c = running.root();
        TreeSpec t = target.activeSpec();
        if (signature(c).equals(signature(t))) {
            return new Result(null, "no change");
        }
        while (true) {
            stack.add(c);
            counterpart.add(t);
            if (!head(c).equals(head(t)) || c.isLeaf()) {
                break;
            }
            List<CcNode> oldKids = active(c.children());
            List<TreeSpec> newKids = new ArrayList<>(t.children);
            for (CcNode k : List.copyOf(oldKids)) {
                String sig = signature(k);
                for (TreeSpec n : newKids) {
                    if (signature(n).equals(sig)) {
                        newKids.remove(n);
                        oldKids.remove(k);
                        break;
                    }
                }
            }
            if (oldKids.size() != 1 || newKids.size() != 1) {
                break;
            }
            c = oldKids.get(0);
            t = newKids.get(0);
        }
        int i = stack.size() - 1;
        while (i > 0 && !mechanisms.apply(stack.get(i - 1).mechanism()).acceptsNewChildren(stack.get(i - 1))) {
            i--;
        }
        if (i == 0) {
            return new Result(null, "the change reaches the root (no parent below it accepts a new child group)");
        }
        CcNode replaced = stack.get(i);
        CcNode parent = stack.get(i - 1);
        TreeSpec spec = running.toSpec();
        TreeSpec p = find(spec, parent.id());
        find(spec, replaced.id()).state = NodeState.DRAINING;
        TreeSpec fresh = counterpart.get(i).copy();
        p.children.add(fresh);
        CcTree merged = CcTree.build(spec.placeAt("root"), target.source() + " (online update, merged)");
        TreeSpec done = merged.toSpec();
        find(done, replaced.id()).state = NodeState.RETIRED;
        CcTree retired = CcTree.build(done, target.source());
        return new Result(new OnlineUpdatePlan(replaced.id(), parent.id(), merged, retired), null);
    }

    private static List<CcNode> active(List<CcNode> nodes) {
        List<CcNode> out = new ArrayList<>();
        for (CcNode n : nodes) {
            if (n.state() == NodeState.ACTIVE) {
                out.add(n);
            }
        }
        return out;
    }

    private static TreeSpec find(TreeSpec s, int id) {
        if (s.id == id) {
            return s;
        }
        for (TreeSpec c : s.children) {
            TreeSpec f = find(c, id);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    /** Mechanism, name, options (sorted), instanceBy and leafness. */
    private static String head(CcNode n) {
        return head(n.mechanism(), n.name(), n.options(), n.instanceBy(), n.isLeaf());
    }

    private static String head(TreeSpec s) {
        return head(s.cc, s.name, s.options, s.instanceBy, s.children.isEmpty());
    }

    private static String head(String cc, String name, Map<String, Object> options, String by, boolean leaf) {
        return cc + "|" + name + "|" + new TreeMap<>(options) + "|" + by + "|" + leaf;
    }

    /** The active subtree, children and types in sorted order. */
    static String signature(CcNode n) {
        if (n.isLeaf()) {
            return head(n) + new java.util.TreeSet<>(n.txns());
        }
        List<String> kids = new ArrayList<>();
        for (CcNode k : active(n.children())) {
            kids.add(signature(k));
        }
        kids.sort(null);
        return head(n) + kids;
    }

    static String signature(TreeSpec s) {
        if (s.children.isEmpty()) {
            return head(s) + new java.util.TreeSet<>(s.txns);
        }
        List<String> kids = new ArrayList<>();
        for (TreeSpec k : s.children) {
            kids.add(signature(k));
        }
        kids.sort(null);
        return head(s) + kids;
    }
}
