package org.tebaldi.core.cc;

import org.tebaldi.core.txn.Op;

/**
 * Capability of a {@link TcPart} that answers plain reads from its own state at the coordinator (e.g. a cache of
 * remote reads, Yu et al. VLDB 2018 §4), found once when the coordinator installs its parts; docs/architecture.md,
 * "Capabilities".
 *
 * @param <S> the part's per-transaction state, as in its {@link TcPart}
 */
public interface ServesReads<S> {
    /**
     * Execution phase, after {@link TcPart#beforeOp} passed: the answer to the plain read {@code op} from this part's
     * own state, or null to send the read to its data server as usual. Asked only when this node is the
     * transaction's whole path (a leaf that is the root): every other level would have to see the read at the data
     * server. A served read reaches no data server and no {@link TcPart#onReport}; the coordinator records it in the
     * history. The part takes the responsibility for validating it.
     */
    LocalRead serveRead(TcTxn t, S st, Op op);
}
