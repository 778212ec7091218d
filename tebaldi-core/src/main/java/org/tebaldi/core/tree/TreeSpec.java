package org.tebaldi.core.tree;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CC tree as written by a user, before validation (docs/trees.md): one mutable node with its mechanism,
 * options, children (inner node) or transaction types (leaf), an optional {@code instanceBy} input for
 * partition-by-instance, and where it came from ({@code place} like {@code root.children[1]}, 1-based
 * {@code line}, 0 if unknown) for error messages.
 *
 * <p>Two fields are never read from YAML: {@code id} keeps a node's id when a tree is derived from a running one
 * (online update, dissertation §5.5.2; -1: assign a fresh id), and {@code state} marks an old subtree that is
 * draining or retired beside its replacement.
 */
public final class TreeSpec {
    public String cc;
    public String name;
    public Map<String, Object> options = new LinkedHashMap<>();
    public List<TreeSpec> children = new ArrayList<>();
    public List<String> txns = new ArrayList<>();
    public String instanceBy;
    public String place = "root";
    public int line;
    /** Node id to keep, or -1 to assign one (see {@link CcTree#build}). */
    public int id = -1;
    /** Lifecycle of this subtree during an online update; children inherit a non-active state. */
    public NodeState state = NodeState.ACTIVE;

    /** A leaf spec. */
    public static TreeSpec leaf(String cc, String... txns) {
        TreeSpec s = new TreeSpec();
        s.cc = cc;
        s.txns = new ArrayList<>(List.of(txns));
        return s;
    }

    /** An inner-node spec. */
    public static TreeSpec inner(String cc, TreeSpec... children) {
        TreeSpec s = new TreeSpec();
        s.cc = cc;
        s.children = new ArrayList<>(List.of(children));
        return s;
    }

    /**
     * A deep copy of the configuration — mechanism, name, options, types, instanceBy, children — without node ids,
     * states or source positions (a new tree built from it gets fresh ids).
     */
    public TreeSpec copy() {
        TreeSpec c = new TreeSpec();
        c.cc = cc;
        c.name = name;
        c.options.putAll(options);
        c.txns.addAll(txns);
        c.instanceBy = instanceBy;
        for (TreeSpec k : children) {
            c.children.add(k.copy());
        }
        return c;
    }

    /** Sets an option and returns this spec. */
    public TreeSpec option(String key, Object value) {
        options.put(key, value);
        return this;
    }

    /** Sets {@code instanceBy} and returns this spec. */
    public TreeSpec instanceBy(String input) {
        this.instanceBy = input;
        return this;
    }

    /** Recomputes {@code place} of this subtree, this node being at {@code at}. */
    public TreeSpec placeAt(String at) {
        place = at;
        for (int i = 0; i < children.size(); i++) {
            children.get(i).placeAt(at + ".children[" + i + "]");
        }
        return this;
    }
}
