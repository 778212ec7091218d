package org.tebaldi.core.history.listappend;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.RowUpdate;

/**
 * The list-append workload's append (docs/architecture.md, "Verification"): adds {@code value} to the end of the
 * comma-separated list in the row's {@value ListAppendTxns#COLUMN} column, at the data server. Data, not a lambda,
 * so that it crosses the network in process mode ({@link #CODEC}, registered by {@code CoreCodecs}).
 *
 * @param table the list table
 * @param value the element appended (unique per key in a run)
 */
public record AppendUpdate(TableSchema table, long value) implements RowUpdate {
    /** Wire form: the table's id and the value, as varints; decoded against the local catalog. */
    public static final Codec<AppendUpdate> CODEC = Codec.of((u, o) -> {
        o.writeVarInt(u.table().id());
        o.writeVarLong(u.value());
    }, i -> {
        int t = i.readVarInt();
        TableSchema table;
        try {
            table = i.context().requireCatalog().table(t);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new CodecException("append to unknown table id " + t);
        }
        return new AppendUpdate(table, i.readVarLong());
    });

    @Override
    public Row apply(Row old) {
        String l = old == null ? "" : old.getString(ListAppendTxns.COLUMN);
        return table.row(l == null || l.isEmpty() ? Long.toString(value) : l + "," + value);
    }
}
