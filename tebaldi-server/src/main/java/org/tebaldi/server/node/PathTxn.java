package org.tebaldi.server.node;

import org.tebaldi.core.cc.TxnView;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.server.msg.TxnHeader;

/**
 * What the coordinator's and the data server's records of a transaction share: its header (id, type, leaf group,
 * instance, priority), its path π from the root to its leaf, and the per-level state of each CC part on the path
 * ({@code newState}), typed on the way out. Owned by one actor.
 */
public abstract class PathTxn implements TxnView {
    /** Identity and group of the transaction, as every request carries it. */
    public final TxnHeader header;
    /** The transaction's path from the root to its leaf. */
    public final CcNode[] path;
    /** The state each level's part keeps for the transaction (set by the node's CC module). */
    public final Object[] states;

    protected PathTxn(TxnHeader header, CcNode[] path) {
        this.header = header;
        this.path = path;
        this.states = new Object[path.length];
    }

    @Override
    public final long id() {
        return header.txnId();
    }

    @Override
    public final int typeId() {
        return header.typeId();
    }

    @Override
    public final int leaf() {
        return header.leaf();
    }

    @Override
    public final long instance() {
        return header.instance();
    }

    @Override
    public final long priority() {
        return header.priority();
    }

    @Override
    public final <S> S state(int level, Class<S> type) {
        Object s = states[level];
        return type.isInstance(s) ? type.cast(s) : null;
    }
}
