package org.tebaldi.core.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CC tree (dissertation §4.1–4.3): nodes in pre-order, each leaf owning transaction types. A transaction of
 * leaf g runs through the path π from the root to g. Node ids are pre-order positions (root 0) unless the spec
 * fixes them, as a tree derived by an online update does (§5.5.2): then an old subtree may stay beside its
 * replacement, {@link NodeState#DRAINING} or {@link NodeState#RETIRED}, its leaves owning no type. Immutable; build
 * it with {@link TreeLoader} (validating) or {@link #build} (structure only, for tests and generated trees).
 */
public final class CcTree {
    private final List<CcNode> nodes;
    private final CcNode[] byId;
    private final Map<String, CcNode> leafByType;
    private final CcNode[][] pathByNode;
    private final String source;

    private CcTree(List<CcNode> nodes, CcNode[] byId, Map<String, CcNode> leafByType, String source) {
        this.nodes = nodes;
        this.byId = byId;
        this.leafByType = leafByType;
        this.source = source;
        this.pathByNode = new CcNode[byId.length][];
        for (CcNode n : nodes) {
            List<CcNode> p = new ArrayList<>();
            for (CcNode c = n; c != null; c = c.parent) {
                p.add(0, c);
            }
            pathByNode[n.id] = p.toArray(new CcNode[0]);
        }
    }

    /**
     * Builds the tree structure from a spec without semantic validation (mechanism names, composability and
     * type coverage are {@link TreeValidator}'s job). Nodes whose spec has {@code id >= 0} keep that id; the others
     * get fresh ids above every kept one, in pre-order (so a spec without ids gets pre-order positions).
     *
     * @param source file name or description, kept for messages
     * @throws IllegalArgumentException if a node has both children and transactions, or neither, a type appears
     *                                  in two active leaves, or two nodes ask for the same id
     */
    public static CcTree build(TreeSpec root, String source) {
        List<CcNode> nodes = new ArrayList<>();
        Map<String, CcNode> leafByType = new LinkedHashMap<>();
        int[] next = {maxId(root) + 1};
        CcNode r = add(root, null, 0, NodeState.ACTIVE, next, nodes, leafByType);
        CcNode[] byId = new CcNode[next[0]];
        for (CcNode n : nodes) {
            if (byId[n.id] != null) {
                throw new IllegalArgumentException(n.place + ": node id " + n.id + " is also used at "
                        + byId[n.id].place);
            }
            byId[n.id] = n;
        }
        for (CcNode n : nodes) {
            n.childOfLeaf = new int[byId.length];
            Arrays.fill(n.childOfLeaf, -1);
        }
        index(r);
        return new CcTree(Collections.unmodifiableList(nodes), byId, Collections.unmodifiableMap(leafByType), source);
    }

    private static int maxId(TreeSpec s) {
        int m = s.id;
        for (TreeSpec c : s.children) {
            m = Math.max(m, maxId(c));
        }
        return m;
    }

    private static CcNode add(TreeSpec s, CcNode parent, int depth, NodeState inherited, int[] next,
                              List<CcNode> nodes, Map<String, CcNode> leaves) {
        boolean hasKids = s.children != null && !s.children.isEmpty();
        boolean hasTxns = s.txns != null && !s.txns.isEmpty();
        if (hasKids == hasTxns) {
            throw new IllegalArgumentException(s.place + ": a node needs either children (inner node) or txns (leaf)");
        }
        NodeState state = s.state == null || s.state.ordinal() < inherited.ordinal() ? inherited : s.state;
        CcNode n = new CcNode(s.id >= 0 ? s.id : next[0]++, depth, s, state);
        n.parent = parent;
        nodes.add(n);
        if (hasKids) {
            List<CcNode> kids = new ArrayList<>();
            for (TreeSpec c : s.children) {
                kids.add(add(c, n, depth + 1, state, next, nodes, leaves));
            }
            n.children = List.copyOf(kids);
        } else if (state == NodeState.ACTIVE) {
            for (String t : s.txns) {
                CcNode prev = leaves.putIfAbsent(t, n);
                if (prev != null) {
                    throw new IllegalArgumentException(s.place + ": transaction type '" + t + "' is already in "
                            + prev.place);
                }
            }
        }
        return n;
    }

    /** Fills childOfLeaf tables; returns the leaves below {@code n}. */
    private static List<CcNode> index(CcNode n) {
        if (n.isLeaf()) {
            n.childOfLeaf[n.id] = 0;
            return List.of(n);
        }
        List<CcNode> all = new ArrayList<>();
        for (int i = 0; i < n.children.size(); i++) {
            for (CcNode leaf : index(n.children.get(i))) {
                n.childOfLeaf[leaf.id] = i;
                all.add(leaf);
            }
        }
        return all;
    }

    public CcNode root() {
        return nodes.get(0);
    }

    /** All nodes in pre-order (draining and retired ones included). */
    public List<CcNode> nodes() {
        return nodes;
    }

    /** The node with id {@code id}, or null if no node has it (a gap left by an online update). */
    public CcNode node(int id) {
        return id >= 0 && id < byId.length ? byId[id] : null;
    }

    /** Number of nodes (draining and retired ones included). */
    public int size() {
        return nodes.size();
    }

    /** One more than the largest node id: the length of arrays indexed by node id. */
    public int idBound() {
        return byId.length;
    }

    /** The leaves in pre-order (draining and retired ones included). */
    public List<CcNode> leaves() {
        return nodes.stream().filter(CcNode::isLeaf).toList();
    }

    /** True if every node is active (no online update in progress or left behind). */
    public boolean allActive() {
        return nodes.stream().allMatch(n -> n.state == NodeState.ACTIVE);
    }

    /** The leaf holding transaction type {@code type}, or null. */
    public CcNode leafFor(String type) {
        return leafByType.get(type);
    }

    /** Transaction types mapped to their leaves, in tree order. */
    public Map<String, CcNode> leafByType() {
        return leafByType;
    }

    /**
     * The path π from the root to node {@code nodeId} (root first); index = depth. Shared array: do not modify.
     *
     * @throws NullPointerException or ArrayIndexOutOfBoundsException if no node has that id
     */
    public CcNode[] path(int nodeId) {
        return pathByNode[nodeId];
    }

    /** Height of the tree: number of nodes on the longest root-to-leaf path. */
    public int height() {
        int h = 0;
        for (CcNode[] p : pathByNode) {
            h = Math.max(h, p == null ? 0 : p.length);
        }
        return h;
    }

    /** Where the tree came from (file name, {@code <inline>}, ...). */
    public String source() {
        return source;
    }

    /**
     * Compact one-line form, e.g. {@code ssi{none[order_status,stock_level],2pl[new_order,payment]}}; a draining
     * subtree is prefixed with {@code ~}, a retired one with {@code -}.
     */
    public String describe() {
        StringBuilder b = new StringBuilder();
        describe(root(), b);
        return b.toString();
    }

    private static void describe(CcNode n, StringBuilder b) {
        if (n.state != NodeState.ACTIVE && (n.parent == null || n.parent.state != n.state)) {
            b.append(n.state == NodeState.DRAINING ? '~' : '-');
        }
        b.append(n.mechanism);
        if (n.isLeaf()) {
            b.append('[').append(String.join(",", n.txns));
            if (n.instanceBy != null) {
                b.append(" by ").append(n.instanceBy);
            }
            b.append(']');
        } else {
            b.append('{');
            for (int i = 0; i < n.children.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                describe(n.children.get(i), b);
            }
            b.append('}');
        }
    }

    /**
     * A canonical form of the active part: like {@link #describe()} but with options, children sorted and types
     * sorted, so two trees that configure the same CC (whatever the order of children or types) compare equal.
     */
    public String canonical() {
        return root().canonical();
    }

    /** The canonical form without options ({@link CcNode#shape()}): mechanisms, groups and types only. */
    public String shape() {
        return root().shape();
    }

    /**
     * A spec equal to this tree, node ids and states included (e.g. to derive a tree for an online update); see
     * {@link #activeSpec()} for one to write back as YAML.
     */
    public TreeSpec toSpec() {
        return toSpec(root());
    }

    /**
     * A spec of the active part only (draining and retired subtrees left out), without node ids: what a user
     * would write to get this configuration from scratch.
     */
    public TreeSpec activeSpec() {
        return strip(toSpec(root()));
    }

    private static TreeSpec strip(TreeSpec s) {
        s.id = -1;
        s.state = NodeState.ACTIVE;
        List<TreeSpec> kids = new ArrayList<>();
        for (TreeSpec c : s.children) {
            if (c.state == NodeState.ACTIVE) {
                kids.add(strip(c));
            }
        }
        s.children = kids;
        return s;
    }

    private static TreeSpec toSpec(CcNode n) {
        TreeSpec s = new TreeSpec();
        s.id = n.id;
        s.state = n.state;
        s.cc = n.mechanism;
        s.name = n.name;
        s.options.putAll(n.options);
        s.txns.addAll(n.txns);
        s.instanceBy = n.instanceBy;
        s.place = n.place;
        s.line = n.line;
        for (CcNode c : n.children) {
            s.children.add(toSpec(c));
        }
        return s;
    }

    @Override
    public String toString() {
        return describe();
    }
}
