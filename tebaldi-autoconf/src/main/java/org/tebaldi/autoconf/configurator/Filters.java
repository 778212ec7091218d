package org.tebaldi.autoconf.configurator;

import org.tebaldi.core.db.Database;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.CompositionRules;
import org.tebaldi.core.tree.Verdict;

/**
 * The optimization stage's filters (dissertation §5.4.1): a candidate passes only if every parent can enforce
 * consistent ordering over its children efficiently — every parent/child pair {@code allowed} by the composability
 * rules (not merely {@code inefficient}), and an SSI node only where it runs the root optimization (at the root,
 * at most one child group with update transactions; elsewhere it must batch) — and if no {@code none} leaf holds
 * an update type. (The other filter, "a mechanism good under heavy contention", is applied by choosing the
 * mechanisms the strategies iterate over.)
 */
public final class Filters {
    private final CompositionRules rules;
    private final Database db;

    public Filters(CompositionRules rules, Database db) {
        this.rules = rules;
        this.db = db;
    }

    /** Why {@code tree} is filtered out, or null if it passes. */
    public String reject(CcTree tree) {
        for (CcNode n : tree.nodes()) {
            if (n.parent() != null) {
                Verdict v = rules.verdict(n.parent().mechanism(), n.mechanism());
                if (v != null && v != Verdict.ALLOWED) {
                    return n.parent().mechanism() + " over " + n.mechanism() + " is " + v.word();
                }
            }
            if (n.mechanism().equals("ssi") && !ssiEfficient(n)) {
                return "ssi at " + n.place() + " would need batching (more than one update group, or not the root)";
            }
            if (n.isLeaf() && n.mechanism().equals("none")) {
                for (String t : n.txns()) {
                    if (!db.type(t).readOnly()) {
                        return "none holds the update type " + t;
                    }
                }
            }
        }
        return null;
    }

    private boolean ssiEfficient(CcNode n) {
        if (!n.isRoot()) {
            return false;
        }
        if (n.isLeaf()) {
            return n.txns().stream().filter(t -> !db.type(t).readOnly()).count() <= 1;
        }
        int updateGroups = 0;
        for (CcNode c : n.children()) {
            if (hasUpdates(c)) {
                updateGroups++;
            }
        }
        return updateGroups <= 1;
    }

    private boolean hasUpdates(CcNode n) {
        if (n.isLeaf()) {
            return n.txns().stream().anyMatch(t -> !db.type(t).readOnly());
        }
        return n.children().stream().anyMatch(this::hasUpdates);
    }
}
