package org.tebaldi.core.cc;

import java.util.List;
import org.tebaldi.core.txn.Inputs;

/** A transaction as the TC parts of its coordinator see it. */
public interface TcTxn extends TxnView {
    /** The transaction's inputs (stored procedures: their parameters; interactive: what the client passed). */
    Inputs inputs();

    /** Dependencies reported by data servers so far (execute and validate replies), in arrival order. */
    List<TxnDep> dependencies();

    /** Indexes of the data servers this transaction touched so far. */
    int[] participants();
}
