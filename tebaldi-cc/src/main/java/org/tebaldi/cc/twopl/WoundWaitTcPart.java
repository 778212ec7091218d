package org.tebaldi.cc.twopl;

import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcNode;

/**
 * TC part of 2PL under {@code deadlock: wound-wait} (Rosenkrantz, Stearns and Lewis 1978): it only relays wounds. A
 * data server that wounds a transaction tells its coordinator ({@link TwoPlMessages.Wound}); this part passes the
 * wound on to every other data server the transaction took part at, where a request it parked aborts at once — a
 * wounded transaction may be waiting at another server, the one place the wounding server cannot reach.
 */
final class WoundWaitTcPart implements TcPart<Void> {
    private final CcNode node;
    private final TcServices services;

    WoundWaitTcPart(CcNode node, TcServices services) {
        this.node = node;
        this.services = services;
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        if (payload instanceof TwoPlMessages.Wound w) {
            TcTxn t = services.txn(w.txnId());
            if (t == null) {
                return; // finished meanwhile
            }
            for (int ds : t.participants()) {
                NodeId to = NodeId.ds(ds);
                if (!to.equals(from)) {
                    services.send(to, node.id(), w);
                }
            }
        }
    }
}
