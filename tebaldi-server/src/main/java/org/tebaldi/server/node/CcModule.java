package org.tebaldi.server.node;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcNode;

/**
 * The CC module of one node (docs/architecture.md, "The CC module"): one part per CC-tree node of the current tree,
 * made by the node's mechanism; rebuilt whole on a partial restart (dissertation §5.5.1), kept and rebound — with
 * parts made for new nodes and dropped for retired ones — on an online update (§5.5.2); and the router of
 * mechanism-specific messages ({@link CcEnvelope}) to the part of their tree node. The coordinator's and the data
 * server's modules ({@code TcModule}, {@code DsModule}) add the per-level passes over a transaction's path.
 * Owned by one actor.
 *
 * @param <P> the part type (TC or DS part)
 */
public abstract class CcModule<P> {
    private Object[] parts = new Object[0];
    private ClusterConfig cfg;

    /** The part of {@code node} made by its mechanism, for this actor. */
    protected abstract P create(ClusterConfig c, CcNode node);

    /** Tells a kept part that its node now lives in another tree (online update). */
    protected abstract void rebind(P part, CcNode node);

    /** Hands a mechanism-specific message to a part. */
    protected abstract void deliver(P part, NodeId from, Object payload);

    /**
     * Tells a part that it is dropped — every part on a partial restart, a retired node's part on an online update —
     * before its replacement is made (so what it sends on the way out precedes the new parts' messages on each link).
     */
    protected void dropped(P part) {
    }

    /** Called after every install or update, with the new configuration (e.g. to rewrite procedures). */
    protected void installed(ClusterConfig c) {
    }

    /** Builds a fresh part for every node of {@code c}'s tree (start, partial restart). */
    public final void install(ClusterConfig c) {
        this.cfg = c; // parts may ask their node for the configuration while they are made
        for (Object old : parts) {
            if (old != null) {
                dropped(cast(old));
            }
        }
        Object[] fresh = new Object[c.tree().idBound()];
        for (CcNode n : c.tree().nodes()) {
            if (n.hasParts()) {
                fresh[n.id()] = create(c, n);
            }
        }
        use(c, fresh);
    }

    /**
     * Online update: switches to a tree derived from the current one with node ids kept — parts of nodes still
     * present stay (rebound to their node in the new tree), new nodes get new parts, retired nodes lose theirs.
     * Transactions already running keep their paths.
     */
    public final void update(ClusterConfig c) {
        this.cfg = c;
        boolean[] stays = new boolean[parts.length];
        for (CcNode n : c.tree().nodes()) {
            if (n.hasParts() && n.id() < parts.length) {
                stays[n.id()] = true;
            }
        }
        for (int id = 0; id < parts.length; id++) {
            if (parts[id] != null && !stays[id]) {
                dropped(cast(parts[id]));
            }
        }
        Object[] next = new Object[c.tree().idBound()];
        for (CcNode n : c.tree().nodes()) {
            if (!n.hasParts()) {
                continue;
            }
            P kept = n.id() < parts.length ? cast(parts[n.id()]) : null;
            if (kept != null) {
                rebind(kept, n);
                next[n.id()] = kept;
            } else {
                next[n.id()] = create(c, n);
            }
        }
        use(c, next);
    }

    private void use(ClusterConfig c, Object[] p) {
        this.parts = p;
        installed(c);
    }

    /** The configuration of the tree installed last. */
    public final ClusterConfig config() {
        return cfg;
    }

    /** The part at {@code level} of {@code path} (a transaction's path from the root to its leaf). */
    public final P part(CcNode[] path, int level) {
        return cast(parts[path[level].id()]);
    }

    /** The part of tree node {@code node}. */
    public final P part(CcNode node) {
        return cast(parts[node.id()]);
    }

    /** Every part of the current tree. */
    public final List<P> parts() {
        List<P> out = new ArrayList<>();
        for (Object p : parts) {
            if (p != null) {
                out.add(cast(p));
            }
        }
        return out;
    }

    /** Routes a mechanism-specific message to the part of its tree node (ignored if the node has none here). */
    public final void onEnvelope(NodeId from, CcEnvelope e) {
        if (e.ccNode() >= 0 && e.ccNode() < parts.length && parts[e.ccNode()] != null) {
            deliver(cast(parts[e.ccNode()]), from, e.payload());
        }
    }

    @SuppressWarnings("unchecked")
    private P cast(Object p) {
        return (P) p;
    }
}
