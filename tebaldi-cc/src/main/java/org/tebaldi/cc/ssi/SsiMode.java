package org.tebaldi.cc.ssi;

import org.tebaldi.core.db.Database;
import org.tebaldi.core.tree.CcNode;

/**
 * Whether an SSI node can use the root optimization (dissertation §4.4.3): it is the root and at most one of its
 * children holds update transactions. Then update transactions need no start timestamp, batching, pivot checks
 * or waiting: consistent ordering comes from committing them in their in-group order, and read-only groups read
 * snapshots (the initial tree of Fig 5.2 is of this kind, equivalent to multiversion 2PL).
 */
final class SsiMode {
    private SsiMode() {
    }

    static boolean rootOptimized(CcNode node, Database db) {
        if (!node.isRoot() || node.isLeaf()) {
            return false;
        }
        int updateChildren = 0;
        for (CcNode child : node.children()) {
            if (hasUpdates(child, db)) {
                updateChildren++;
            }
        }
        return updateChildren <= 1;
    }

    private static boolean hasUpdates(CcNode n, Database db) {
        if (n.isLeaf()) {
            for (String t : n.txns()) {
                if (db.hasType(t) && !db.type(t).readOnly()) {
                    return true;
                }
            }
            return false;
        }
        for (CcNode c : n.children()) {
            if (hasUpdates(c, db)) {
                return true;
            }
        }
        return false;
    }
}
