package org.tebaldi.core.txn;

import java.util.Objects;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * One data operation of a transaction on one row (DESIGN.md §4): read, read-for-update, write (insert or
 * overwrite), read-modify-write, delete. Immutable.
 *
 * @param kind   what to do
 * @param key    the row's address
 * @param value  the row to write ({@code WRITE} only)
 * @param update the update function ({@code UPDATE} only)
 */
public record Op(OpKind kind, Key key, Row value, RowUpdate update) {
    public Op {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        if (kind == OpKind.WRITE && value == null) {
            throw new IllegalArgumentException("write needs a row");
        }
        if (kind == OpKind.UPDATE && update == null) {
            throw new IllegalArgumentException("update needs an update function");
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

    public static Op delete(Key key) {
        return new Op(OpKind.DELETE, key, null, null);
    }
}
