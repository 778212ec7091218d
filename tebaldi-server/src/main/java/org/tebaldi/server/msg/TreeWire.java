package org.tebaldi.server.msg;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.Decoder;
import org.tebaldi.core.codec.Encoder;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.NodeState;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.tree.TreeSpec;

/**
 * A CC tree on the wire for the reconfiguration protocols: its source name, its YAML (structure, mechanisms,
 * options, types, instanceBy) and, in pre-order, each node's id and {@link NodeState} — ids are not pre-order
 * positions after an online update (dissertation §5.5.2), and every node must index its CC parts and version
 * stamps the same way.
 */
public final class TreeWire {
    private TreeWire() {
    }

    /** Writes {@code tree}. */
    public static void write(Encoder o, CcTree tree) {
        o.writeString(tree.source());
        TreeSpec spec = tree.toSpec();
        o.writeString(TreeLoader.toYaml(spec));
        List<TreeSpec> order = preorder(spec, new ArrayList<>());
        o.writeVarInt(order.size());
        for (TreeSpec s : order) {
            o.writeVarInt(s.id);
            o.writeVarInt(s.state.ordinal());
        }
    }

    /**
     * Reads a tree written by {@link #write}.
     *
     * @throws CodecException if the ids and states do not match the YAML's nodes
     */
    public static CcTree read(Decoder i) {
        String source = i.readString();
        TreeSpec spec = TreeLoader.readSpec(i.readString(), source);
        List<TreeSpec> order = preorder(spec, new ArrayList<>());
        int n = i.readVarInt();
        if (n != order.size()) {
            throw new CodecException("tree '" + source + "' has " + order.size() + " nodes but " + n + " ids");
        }
        NodeState[] states = NodeState.values();
        for (TreeSpec s : order) {
            s.id = i.readVarInt();
            int st = i.readVarInt();
            if (st < 0 || st >= states.length) {
                throw new CodecException("bad node state " + st + " in tree '" + source + "'");
            }
            s.state = states[st];
        }
        return CcTree.build(spec, source);
    }

    private static List<TreeSpec> preorder(TreeSpec s, List<TreeSpec> out) {
        out.add(s);
        for (TreeSpec c : s.children) {
            preorder(c, out);
        }
        return out;
    }
}
