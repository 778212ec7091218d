package org.tebaldi.core.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CC tree (dissertation §4.1–4.3): nodes in pre-order (root id 0), each leaf owning transaction types. A
 * transaction of leaf g runs through the path π from the root to g. Immutable; build it with
 * {@link TreeLoader} (validating) or {@link #build} (structure only, for tests and generated trees).
 */
public final class CcTree {
    private final List<CcNode> nodes;
    private final Map<String, CcNode> leafByType;
    private final CcNode[][] pathByNode;
    private final String source;

    private CcTree(List<CcNode> nodes, Map<String, CcNode> leafByType, String source) {
        this.nodes = nodes;
        this.leafByType = leafByType;
        this.source = source;
        this.pathByNode = new CcNode[nodes.size()][];
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
     * type coverage are {@link TreeValidator}'s job).
     *
     * @param source file name or description, kept for messages
     * @throws IllegalArgumentException if a node has both children and transactions, or neither, or a type
     *                                  appears in two leaves
     */
    public static CcTree build(TreeSpec root, String source) {
        List<CcNode> nodes = new ArrayList<>();
        Map<String, CcNode> leafByType = new LinkedHashMap<>();
        CcNode r = add(root, null, 0, nodes, leafByType);
        for (CcNode n : nodes) {
            n.childOfLeaf = new int[nodes.size()];
            Arrays.fill(n.childOfLeaf, -1);
        }
        index(r);
        return new CcTree(Collections.unmodifiableList(nodes), Collections.unmodifiableMap(leafByType), source);
    }

    private static CcNode add(TreeSpec s, CcNode parent, int depth, List<CcNode> nodes, Map<String, CcNode> leaves) {
        boolean hasKids = s.children != null && !s.children.isEmpty();
        boolean hasTxns = s.txns != null && !s.txns.isEmpty();
        if (hasKids == hasTxns) {
            throw new IllegalArgumentException(s.place + ": a node needs either children (inner node) or txns (leaf)");
        }
        CcNode n = new CcNode(nodes.size(), depth, s);
        n.parent = parent;
        nodes.add(n);
        if (hasKids) {
            List<CcNode> kids = new ArrayList<>();
            for (TreeSpec c : s.children) {
                kids.add(add(c, n, depth + 1, nodes, leaves));
            }
            n.children = List.copyOf(kids);
        } else {
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

    /** All nodes in pre-order; a node's id is its position. */
    public List<CcNode> nodes() {
        return nodes;
    }

    public CcNode node(int id) {
        return nodes.get(id);
    }

    public int size() {
        return nodes.size();
    }

    /** The leaves in pre-order. */
    public List<CcNode> leaves() {
        return nodes.stream().filter(CcNode::isLeaf).toList();
    }

    /** The leaf holding transaction type {@code type}, or null. */
    public CcNode leafFor(String type) {
        return leafByType.get(type);
    }

    /** Transaction types mapped to their leaves, in tree order. */
    public Map<String, CcNode> leafByType() {
        return leafByType;
    }

    /** The path π from the root to node {@code nodeId} (root first); index = depth. Shared array: do not modify. */
    public CcNode[] path(int nodeId) {
        return pathByNode[nodeId];
    }

    /** Height of the tree: number of nodes on the longest root-to-leaf path. */
    public int height() {
        int h = 0;
        for (CcNode[] p : pathByNode) {
            h = Math.max(h, p.length);
        }
        return h;
    }

    /** Where the tree came from (file name, {@code <inline>}, ...). */
    public String source() {
        return source;
    }

    /** Compact one-line form, e.g. {@code ssi{none[order_status,stock_level],2pl[new_order,payment]}}. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        describe(root(), b);
        return b.toString();
    }

    private static void describe(CcNode n, StringBuilder b) {
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

    /** A spec equal to this tree (e.g. to write it back as YAML). */
    public TreeSpec toSpec() {
        return toSpec(root());
    }

    private static TreeSpec toSpec(CcNode n) {
        TreeSpec s = new TreeSpec();
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
