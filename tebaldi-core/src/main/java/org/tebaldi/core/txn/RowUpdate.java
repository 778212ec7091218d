package org.tebaldi.core.txn;

import org.tebaldi.core.model.Row;

/**
 * The function of a read-modify-write: computes the new row from the current one, at the data server, inside the
 * operation (one round trip). Implementations that must cross a network are data (e.g. the stored-procedure
 * {@code ExprUpdate}); a lambda works only in embedded mode.
 */
@FunctionalInterface
public interface RowUpdate {
    /**
     * @param old the row the read-version chain chose; never null (an update of an absent row writes nothing)
     * @return the new row, of the same table
     */
    Row apply(Row old);
}
