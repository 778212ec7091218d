package org.tebaldi.bench.ui;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.NodeState;

/**
 * A CC tree as JSON for the live view's tree drawing: {@code {describe, nodes, root}}, each node
 * {@code {id, cc, name, state, txns, instanceBy, options, children}} ({@code state}: {@code active}, or
 * {@code draining} while an online update drains the old subtree, dissertation §5.5). Retired subtrees — gone from
 * the running configuration, kept in the tree object only for their ids — are left out.
 */
public final class TreeJson {
    private TreeJson() {
    }

    /** The tree as a JSON object; {@code nodes} counts the nodes in it (the browser draws one box per node). */
    public static ObjectNode of(CcTree tree) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("describe", tree.describe());
        o.put("nodes", tree.nodes().stream().filter(n -> n.state() != NodeState.RETIRED).count());
        o.set("root", node(tree.root()));
        return o;
    }

    private static ObjectNode node(CcNode n) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("id", n.id());
        o.put("cc", n.mechanism());
        if (n.name() != null) {
            o.put("name", n.name());
        }
        o.put("state", n.state().name().toLowerCase(java.util.Locale.ROOT));
        var txns = o.putArray("txns");
        n.txns().forEach(txns::add);
        if (n.instanceBy() != null) {
            o.put("instanceBy", n.instanceBy());
        }
        ObjectNode opts = o.putObject("options");
        for (Map.Entry<String, Object> e : n.options().entrySet()) {
            opts.put(e.getKey(), String.valueOf(e.getValue()));
        }
        var kids = o.putArray("children");
        n.children().stream().filter(c -> c.state() != NodeState.RETIRED).forEach(c -> kids.add(node(c)));
        return o;
    }
}
