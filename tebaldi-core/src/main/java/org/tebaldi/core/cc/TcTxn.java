package org.tebaldi.core.cc;

import java.util.List;
import org.tebaldi.core.txn.Inputs;

/** A transaction as seen by the TC parts of its coordinator. */
public interface TcTxn extends TxnView {
    Inputs inputs();

    /** Dependencies reported by data servers so far (execute and validate replies). */
    List<TxnDep> dependencies();

    /** Indexes of the data servers this transaction touched. */
    int[] participants();
}
