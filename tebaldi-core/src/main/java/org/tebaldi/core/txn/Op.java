package org.tebaldi.core.txn;

import java.util.Objects;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * One data operation of a transaction on one row (docs/architecture.md, "Transactions"): read, read-for-update,
 * write (insert or overwrite), read-modify-write, delete, insert-or-update. Immutable.
 *
 * @param kind   what to do
 * @param key    the row's address
 * @param value  the row to write ({@code WRITE}), or to insert when the row is absent ({@code UPSERT})
 * @param update the update function ({@code UPDATE}, {@code UPSERT})
 */
public record Op(OpKind kind, Key key, Row value, RowUpdate update) {
    /** @throws IllegalArgumentException if the kind's row or update function is missing */
    public Op {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        if ((kind == OpKind.WRITE || kind == OpKind.UPSERT) && value == null) {
            throw new IllegalArgumentException(kind == OpKind.WRITE ? "write needs a row"
                    : "upsert needs the row to insert when absent");
        }
        if ((kind == OpKind.UPDATE || kind == OpKind.UPSERT) && update == null) {
            throw new IllegalArgumentException(kind.name().toLowerCase() + " needs an update function");
        }
    }

    public static Op read(Key key) {
        return new Op(OpKind.READ, key, null, null);
    }

    public static Op readForUpdate(Key key) {
        return new Op(OpKind.READ_FOR_UPDATE, key, null, null);
    }

    public static Op write(Key key, Row row) {
        return new Op(OpKind.WRITE, key, row, null);
    }

    public static Op update(Key key, RowUpdate update) {
        return new Op(OpKind.UPDATE, key, null, update);
    }

    /**
     * Insert-or-update at the data server, in one operation: if the row at {@code key} exists (in the view the CC
     * tree gives the transaction), writes {@code update.apply(row)}, else writes {@code ifAbsent}. The operation's
     * result is the row written. Usable inside {@link org.tebaldi.core.client.Transaction#executeAll}.
     */
    public static Op upsert(Key key, Row ifAbsent, RowUpdate update) {
        return new Op(OpKind.UPSERT, key, ifAbsent, update);
    }

    public static Op delete(Key key) {
        return new Op(OpKind.DELETE, key, null, null);
    }
}
