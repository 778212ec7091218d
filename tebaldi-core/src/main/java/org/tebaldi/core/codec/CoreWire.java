package org.tebaldi.core.codec;

import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.OpKind;
import org.tebaldi.core.txn.RowUpdate;

/**
 * Untagged layouts of the data-model types, for codecs that embed them in fixed positions: a key is its table id
 * and parts; a row its table id and tagged column values (rebuilt against the local catalog, which checks the
 * column types); an operation its kind, key, optional row and optional update (a tagged value: only updates with a
 * codec, such as {@link org.tebaldi.core.proc.ExprUpdate}, can travel); inputs a count and tagged values.
 */
public final class CoreWire {
    private static final OpKind[] KINDS = OpKind.values();

    private CoreWire() {
    }

    /** Writes a non-null key. */
    public static void writeKey(Encoder out, Key k) {
        out.writeVarInt(k.table());
        out.writeVarInt(k.arity());
        for (int i = 0; i < k.arity(); i++) {
            out.writeVarLong(k.part(i));
        }
    }

    /** Reads a key. */
    public static Key readKey(Decoder in) {
        int table = in.readVarInt();
        int n = in.readVarInt();
        if (n < 0 || n > in.remaining()) {
            throw new CodecException("key arity " + n + " out of range");
        }
        long[] parts = new long[n];
        for (int i = 0; i < n; i++) {
            parts[i] = in.readVarLong();
        }
        return Key.of(table, parts);
    }

    /** Writes a key array, or null. */
    public static void writeKeys(Encoder out, Key[] keys) {
        if (keys == null) {
            out.writeVarInt(0);
            return;
        }
        out.writeVarInt(keys.length + 1);
        for (Key k : keys) {
            writeKey(out, k);
        }
    }

    /** Reads a key array, or null. */
    public static Key[] readKeys(Decoder in) {
        int n = in.readLength();
        if (n < 0) {
            return null;
        }
        Key[] keys = new Key[n];
        for (int i = 0; i < n; i++) {
            keys[i] = readKey(in);
        }
        return keys;
    }

    /** Writes a row, or null. */
    public static void writeRow(Encoder out, Row r) {
        if (r == null) {
            out.writeVarInt(0);
            return;
        }
        out.writeVarInt(r.table().id() + 1);
        out.writeVarInt(r.size());
        for (int i = 0; i < r.size(); i++) {
            out.writeValue(r.get(i));
        }
    }

    /**
     * Reads a row, or null.
     *
     * @throws CodecException if the table is unknown here or a value does not fit its column
     */
    public static Row readRow(Decoder in) {
        int t = in.readVarInt() - 1;
        if (t < 0) {
            return null;
        }
        TableSchema table;
        try {
            table = in.context().requireCatalog().table(t);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new CodecException("row of unknown table id " + t);
        }
        int n = in.readVarInt();
        if (n < 0 || n > in.remaining()) {
            throw new CodecException("row width " + n + " out of range");
        }
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            values[i] = in.readValue();
        }
        try {
            return Row.of(table, values);
        } catch (IllegalArgumentException e) {
            throw new CodecException("bad row of " + table.name() + ": " + e.getMessage());
        }
    }

    /** Writes an operation. @throws CodecException if its update has no codec */
    public static void writeOp(Encoder out, Op op) {
        out.writeByte(op.kind().ordinal());
        writeKey(out, op.key());
        writeRow(out, op.value());
        out.writeValue(op.update());
    }

    /** Reads an operation. */
    public static Op readOp(Decoder in) {
        int k = in.readByte();
        if (k >= KINDS.length) {
            throw new CodecException("unknown operation kind " + k);
        }
        Key key = readKey(in);
        Row row = readRow(in);
        Object u = in.readValue();
        if (u != null && !(u instanceof RowUpdate)) {
            throw new CodecException("operation update is a " + u.getClass().getName());
        }
        try {
            return new Op(KINDS[k], key, row, (RowUpdate) u);
        } catch (IllegalArgumentException e) {
            throw new CodecException("bad operation: " + e.getMessage());
        }
    }

    /** Writes inputs (null as none). */
    public static void writeInputs(Encoder out, Inputs in) {
        Object[] v = in == null ? new Object[0] : in.values();
        out.writeVarInt(v.length);
        for (Object x : v) {
            out.writeValue(x);
        }
    }

    /** Reads inputs. */
    public static Inputs readInputs(Decoder in) {
        int n = in.readVarInt();
        if (n < 0 || n > in.remaining()) {
            throw new CodecException("input count " + n + " out of range");
        }
        Object[] v = new Object[n];
        for (int i = 0; i < n; i++) {
            v[i] = in.readValue();
        }
        return n == 0 ? Inputs.NONE : Inputs.of(v);
    }

    /** Writes an array of tagged values (e.g. per-level CC metadata), or null. */
    public static void writeValues(Encoder out, Object[] values) {
        if (values == null) {
            out.writeVarInt(0);
            return;
        }
        out.writeVarInt(values.length + 1);
        for (Object v : values) {
            out.writeValue(v);
        }
    }

    /** Reads an array of tagged values, or null. */
    public static Object[] readValues(Decoder in) {
        int n = in.readLength();
        if (n < 0) {
            return null;
        }
        Object[] v = new Object[n];
        for (int i = 0; i < n; i++) {
            v[i] = in.readValue();
        }
        return v;
    }
}
