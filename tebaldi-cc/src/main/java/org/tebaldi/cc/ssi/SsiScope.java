package org.tebaldi.cc.ssi;

import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcNode;

/**
 * What the pieces of SSI's data-server part share ({@link SsiDsPart}, {@link BatchRules}, {@link DstReads}): the
 * node (rebound by online updates), the server, the node's level and id, and the questions every rule asks about a
 * version — written in this node's subtree? by the reader's own batch? by a prepared writer of another batch?
 */
final class SsiScope {
    CcNode node;
    final DsServices services;
    final int level;
    final int id;

    SsiScope(CcNode node, DsServices services) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.id = node.id();
    }

    /** Whether {@code v} was written inside this node's subtree. */
    boolean inSubtree(Version v) {
        return node.contains(v.writerLeaf());
    }

    /** Whether {@code v} is {@code t}'s own or written by its batch (same child group, same start timestamp). */
    boolean sameBatch(DsTxn t, SsiDsPart.Snapshot st, Version v) {
        if (v.writer() == t.id()) {
            return true;
        }
        if (node.isLeaf() || st.startTs < 0) {
            return false;
        }
        return node.sameGroup(t.id(), t.leaf(), t.instance(), v.writer(), v.writerLeaf(), v.writerInstance())
                && v.auxStamp(id) == st.startTs;
    }

    /** Whether transaction {@code writer} is prepared here. */
    boolean prepared(long writer) {
        DsTxn w = services.txn(writer);
        SsiDsPart.Snapshot st = w == null ? null : w.state(level, SsiDsPart.Snapshot.class);
        return st != null && st.prepared;
    }

    /** Whether {@code v} is an uncommitted version of a prepared writer of another batch of this subtree. */
    boolean preparedOtherBatch(DsTxn t, SsiDsPart.Snapshot st, Version v) {
        return !v.committed() && inSubtree(v) && !sameBatch(t, st, v) && prepared(v.writer());
    }
}
