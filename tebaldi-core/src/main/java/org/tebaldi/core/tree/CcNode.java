package org.tebaldi.core.tree;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.config.Durations;

/**
 * One node of a validated CC tree (dissertation §4.1): a mechanism responsible for the conflicts among the
 * transactions of its subtree, delegating conflicts inside one child subtree to that child. Immutable.
 *
 * <p>Group relation: two transactions are in the <em>same group</em> at this node when they fall in the same
 * child subtree (for a leaf: when they are the same transaction). For a child that is a partition-by-instance
 * leaf, transactions with different instance values are in different groups (§5.4.2).
 */
public final class CcNode {
    final int id;
    final int depth;
    final String mechanism;
    final String name;
    final Map<String, Object> options;
    final List<String> txns;
    final String instanceBy;
    final String place;
    final int line;
    final NodeState state;
    CcNode parent;
    List<CcNode> children = List.of();
    /** child index (0..) by leaf node id; -1 if that leaf is not below this node. */
    int[] childOfLeaf;

    CcNode(int id, int depth, TreeSpec spec, NodeState state) {
        this.id = id;
        this.state = state;
        this.depth = depth;
        this.mechanism = spec.cc;
        this.name = spec.name;
        this.options = Map.copyOf(spec.options);
        this.txns = List.copyOf(spec.txns);
        this.instanceBy = spec.instanceBy;
        this.place = spec.place;
        this.line = spec.line;
    }

    /**
     * Node id, used to index per-node state such as version stamps and CC parts: the position in pre-order (root =
     * 0) for a loaded tree; kept across online updates, so a derived tree may have gaps ({@link CcTree#idBound}).
     */
    public int id() {
        return id;
    }

    /** Depth: root = 0. Equals this node's position on every path through it (the "level"). */
    public int depth() {
        return depth;
    }

    /** Mechanism name: {@code 2pl}, {@code rp}, {@code ssi}, {@code tso}, {@code none}. */
    public String mechanism() {
        return mechanism;
    }

    /** Optional display name from the YAML. */
    public String name() {
        return name;
    }

    public Map<String, Object> options() {
        return options;
    }

    /** Leaf only: the transaction types of this group. */
    public List<String> txns() {
        return txns;
    }

    /** Leaf only: the input that separates instances (partition-by-instance), or null. */
    public String instanceBy() {
        return instanceBy;
    }

    /** Where the node was written, e.g. {@code root.children[1]}. */
    public String place() {
        return place;
    }

    /** 1-based line in the tree file, 0 if unknown. */
    public int line() {
        return line;
    }

    /** Whether this node runs its CC parts and receives new transactions (online update, §5.5.2). */
    public NodeState state() {
        return state;
    }

    /** True unless retired: the node's CC parts exist. */
    public boolean hasParts() {
        return state != NodeState.RETIRED;
    }

    public CcNode parent() {
        return parent;
    }

    public List<CcNode> children() {
        return Collections.unmodifiableList(children);
    }

    public boolean isLeaf() {
        return children.isEmpty();
    }

    public boolean isRoot() {
        return parent == null;
    }

    /** True if the leaf with node id {@code leafId} is in this subtree. */
    public boolean contains(int leafId) {
        return leafId >= 0 && leafId < childOfLeaf.length && childOfLeaf[leafId] >= 0;
    }

    /** Index of the child whose subtree holds leaf {@code leafId}; -1 if not below this node (0 for itself). */
    public int childIndexOf(int leafId) {
        return leafId >= 0 && leafId < childOfLeaf.length ? childOfLeaf[leafId] : -1;
    }

    /**
     * Whether two transactions are in the same group at this node: same child subtree (and the same instance if
     * that child is a partition-by-instance leaf); at a leaf, the same transaction. Transactions outside this
     * subtree (e.g. the initial load, leaf -1) are in no group.
     */
    public boolean sameGroup(long txnA, int leafA, long instA, long txnB, int leafB, long instB) {
        if (isLeaf()) {
            return txnA == txnB;
        }
        int ca = childIndexOf(leafA);
        if (ca < 0 || ca != childIndexOf(leafB)) {
            return false;
        }
        CcNode child = children.get(ca);
        return child.instanceBy == null || !child.isLeaf() || instA == instB;
    }

    /**
     * A canonical form of this node's active subtree: mechanism, options, name, types (sorted), instanceBy and the
     * children's canonical forms (sorted), so equal forms mean the same configuration whatever the order of
     * children or types ({@link CcTree#canonical()}).
     */
    public String canonical() {
        return canonical(true);
    }

    /**
     * {@link #canonical()} without the nodes' options: the tree's shape — mechanisms, groups and types — which two
     * trees that differ only in options (e.g. a 2PL node's dead-lock handling) share ({@link CcTree#shape()}).
     */
    public String shape() {
        return canonical(false);
    }

    private String canonical(boolean withOptions) {
        StringBuilder b = new StringBuilder(mechanism);
        if (withOptions && !options.isEmpty()) {
            b.append(new java.util.TreeMap<>(options));
        }
        if (name != null) {
            b.append('"').append(name).append('"');
        }
        if (isLeaf()) {
            b.append(new java.util.TreeSet<>(txns));
            if (instanceBy != null) {
                b.append(" by ").append(instanceBy);
            }
            return b.toString();
        }
        java.util.List<String> kids = new java.util.ArrayList<>();
        for (CcNode c : children) {
            if (c.state == NodeState.ACTIVE) {
                kids.add(c.canonical(withOptions));
            }
        }
        kids.sort(null);
        return b.append('{').append(String.join(",", kids)).append('}').toString();
    }

    /** A string option, or {@code def}. */
    public String option(String key, String def) {
        Object v = options.get(key);
        return v == null ? def : String.valueOf(v);
    }

    /** A duration option in µs ({@link Durations}), or {@code defMicros}. @throws IllegalArgumentException if malformed */
    public long durationOption(String key, long defMicros) {
        Object v = options.get(key);
        return v == null ? defMicros : Durations.parseMicros(v);
    }

    /** A boolean option, or {@code def}. */
    public boolean boolOption(String key, boolean def) {
        Object v = options.get(key);
        return v == null ? def : Boolean.parseBoolean(String.valueOf(v));
    }

    /** A long option, or {@code def}. @throws NumberFormatException if malformed */
    public long longOption(String key, long def) {
        Object v = options.get(key);
        return v == null ? def : v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v));
    }

    @Override
    public String toString() {
        return mechanism + "#" + id + (name != null ? "(" + name + ")" : "");
    }
}
