package org.tebaldi.autoconf.configurator;

import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.Verdict;

/**
 * The optimization stage's filters (dissertation §5.4.1): a candidate passes only if every parent can enforce
 * consistent ordering over its children efficiently — every parent/child pair {@code allowed} by the composability
 * rules (not merely {@code inefficient}), and every node efficient where it stands by its mechanism's own
 * declaration ({@link Mechanism#efficientAt}: e.g. SSI only where its root optimization applies) — and if no leaf of
 * a read-only mechanism ({@link Mechanism#readOnlyLeaf}, e.g. {@code none}) holds an update type. (The other filter,
 * "a mechanism good under heavy contention", is applied by choosing the mechanisms the strategies iterate over.)
 */
public final class Filters {
    private final TreeContext ctx;

    /** Filters against {@code ctx}'s rules, database and mechanisms. */
    public Filters(TreeContext ctx) {
        this.ctx = ctx;
    }

    /** Why {@code tree} is filtered out, or null if it passes. */
    public String reject(CcTree tree) {
        for (CcNode n : tree.nodes()) {
            if (n.parent() != null) {
                Verdict v = ctx.rules().verdict(n.parent().mechanism(), n.mechanism());
                if (v != null && v != Verdict.ALLOWED) {
                    return n.parent().mechanism() + " over " + n.mechanism() + " is " + v.word();
                }
            }
            Mechanism m = ctx.mechanisms().get(n.mechanism());
            if (m == null) {
                return "unknown mechanism " + n.mechanism();
            }
            if (!m.efficientAt(n, ctx.database())) {
                return n.mechanism() + " at " + n.place() + " would not run efficiently there (e.g. ssi would need "
                        + "batching: more than one update group, or not the root)";
            }
            if (n.isLeaf() && m.readOnlyLeaf()) {
                for (String t : n.txns()) {
                    if (!ctx.database().type(t).readOnly()) {
                        return n.mechanism() + " holds the update type " + t;
                    }
                }
            }
        }
        return null;
    }
}
