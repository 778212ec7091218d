package org.tebaldi.server.durability;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tebaldi.core.codec.ByteArrayDecoder;
import org.tebaldi.core.codec.ByteArrayEncoder;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.codec.CoreWire;
import org.tebaldi.core.codec.Decoder;
import org.tebaldi.core.codec.Encoder;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;

/**
 * The byte layout of a data server's store: four column families. {@code log}: per transaction, keyed
 * {@code [txn id: 8 bytes big-endian][kind: 1]} (kind 0 operation logs, followed by a 4-byte index; 1 precommit,
 * which carries the operation logs written with it; 2 commit; 3 abort), so one transaction's records are adjacent. {@code data}: one entry per key (the key's wire
 * encoding) → {@code [order key][writer][row]} — the initial load, and what recovery folded in. {@code meta}:
 * {@code persisted}, {@code decision}, {@code finished}. {@code history}: per transaction kept by recovery, only when
 * the history is recorded. Values use the codec framework's var-ints and row encoding.
 */
public final class LogFormat {
    /** Column families. */
    public enum Cf {
        LOG, DATA, META, HISTORY
    }

    /** One key/value to put in a column family. */
    public record Entry(Cf cf, byte[] key, byte[] value) {
    }

    private static final byte OP = 0;
    private static final byte PRECOMMIT = 1;
    private static final byte COMMIT = 2;
    private static final byte ABORT = 3;
    static final byte[] PERSISTED = "persisted".getBytes(StandardCharsets.UTF_8);
    static final byte[] DECISION = "decision".getBytes(StandardCharsets.UTF_8);
    static final byte[] FINISHED = "finished".getBytes(StandardCharsets.UTF_8);

    private final CodecRegistry registry;
    private final CodecContext context;

    /** @param catalog the tables (to decode rows) */
    public LogFormat(Catalog catalog) {
        this.registry = CodecRegistry.classPath();
        this.context = new CodecContext(catalog);
    }

    /** Bytes a precommit entry's encoder starts with, before 64 per operation it carries. */
    private static final int PRECOMMIT_CAPACITY = 128;

    private ByteArrayEncoder enc() {
        return new ByteArrayEncoder(registry);
    }

    private Decoder dec(byte[] b) {
        return new ByteArrayDecoder(registry, context, b);
    }

    private static byte[] txnKey(long txn, byte kind, int extra) {
        byte[] k = new byte[9 + (kind == OP ? 4 : 0)];
        for (int i = 0; i < 8; i++) {
            k[i] = (byte) (txn >>> (56 - 8 * i));
        }
        k[8] = kind;
        if (kind == OP) {
            for (int i = 0; i < 4; i++) {
                k[9 + i] = (byte) (extra >>> (24 - 8 * i));
            }
        }
        return k;
    }

    private static long txnOf(byte[] k) {
        long t = 0;
        for (int i = 0; i < 8; i++) {
            t = (t << 8) | (k[i] & 0xFF);
        }
        return t;
    }

    /** The store key of a data row. */
    public byte[] dataKey(Key key) {
        ByteArrayEncoder e = enc();
        CoreWire.writeKey(e, key);
        return e.toByteArray();
    }

    /**
     * The entries of one write's records, in order: a transaction's operation logs followed by its precommit log
     * become one entry (the precommit's, carrying the operations), so a transaction costs the store one key and one
     * value per data server instead of one per written key; any other record is encoded alone ({@link #encode}).
     *
     * @throws CodecException if a row cannot be encoded
     */
    public List<Entry> encodeAll(List<LogRecord> records) {
        List<Entry> out = new ArrayList<>(2);
        int i = 0;
        while (i < records.size()) {
            int j = i;
            while (j < records.size() && records.get(j) instanceof LogRecord.Op op
                    && op.txn() == txnOf(records, i)) {
                j++;
            }
            if (j < records.size() && records.get(j) instanceof LogRecord.Precommit p && p.txn() == txnOf(records, i)) {
                out.add(precommit(p, records.subList(i, j)));
                i = j + 1;
                continue;
            }
            out.addAll(encode(records.get(i)));
            i++;
        }
        return out;
    }

    private static long txnOf(List<LogRecord> records, int i) {
        LogRecord r = records.get(i);
        return r instanceof LogRecord.Op op ? op.txn() : r instanceof LogRecord.Precommit p ? p.txn() : -1;
    }

    /** A precommit log with the transaction's operation logs (all of them here) inside. */
    private Entry precommit(LogRecord.Precommit p, List<LogRecord> ops) {
        // a transaction's rows in one entry (TPC-C's new_order: about 1 KB): sized so that it rarely grows
        ByteArrayEncoder e = new ByteArrayEncoder(registry, PRECOMMIT_CAPACITY + 64 * ops.size());
        e.writeVarLong(p.epoch());
        e.writeVarInt(p.participants());
        e.writeVarInt(p.typeId());
        e.writeVarInt(p.ops());
        writeReads(e, p.reads());
        e.writeVarInt(ops.size());
        for (LogRecord r : ops) {
            LogRecord.Op op = (LogRecord.Op) r;
            e.writeVarInt(op.index());
            CoreWire.writeKey(e, op.key());
            e.writeVarLong(op.orderKey());
            e.writeVarInt(op.writeSeq());
            CoreWire.writeRow(e, op.row());
        }
        return new Entry(Cf.LOG, txnKey(p.txn(), PRECOMMIT, 0), e.toByteArray());
    }

    /**
     * The entries of a record ({@link LogRecord.ClearLog} has none: stores handle it as a range deletion).
     *
     * @throws CodecException if a row cannot be encoded
     */
    public List<Entry> encode(LogRecord r) {
        if (r instanceof LogRecord.Encoded x) {
            return List.of(new Entry(x.cf(), x.key(), x.value()));
        }
        ByteArrayEncoder e = enc();
        if (r instanceof LogRecord.Op op) {
            CoreWire.writeKey(e, op.key());
            e.writeVarLong(op.orderKey());
            e.writeVarInt(op.writeSeq());
            CoreWire.writeRow(e, op.row());
            return List.of(new Entry(Cf.LOG, txnKey(op.txn(), OP, op.index()), e.toByteArray()));
        }
        if (r instanceof LogRecord.Precommit p) {
            e.writeVarLong(p.epoch());
            e.writeVarInt(p.participants());
            e.writeVarInt(p.typeId());
            e.writeVarInt(p.ops());
            writeReads(e, p.reads());
            e.writeVarInt(0); // no operation logs inside: they are entries of their own
            return List.of(new Entry(Cf.LOG, txnKey(p.txn(), PRECOMMIT, 0), e.toByteArray()));
        }
        if (r instanceof LogRecord.Commit c) {
            e.writeVarLong(c.globalEpoch());
            return List.of(new Entry(Cf.LOG, txnKey(c.txn(), COMMIT, 0), e.toByteArray()));
        }
        if (r instanceof LogRecord.Abort a) {
            return List.of(new Entry(Cf.LOG, txnKey(a.txn(), ABORT, 0), new byte[0]));
        }
        if (r instanceof LogRecord.Data d) {
            e.writeVarLong(d.orderKey());
            e.writeVarLong(d.writer());
            CoreWire.writeRow(e, d.row());
            return List.of(new Entry(Cf.DATA, dataKey(d.key()), e.toByteArray()));
        }
        if (r instanceof LogRecord.Persisted p) {
            e.writeVarLong(p.epoch());
            return List.of(new Entry(Cf.META, PERSISTED, e.toByteArray()));
        }
        if (r instanceof LogRecord.History h) {
            e.writeVarInt(h.typeId());
            writeReads(e, h.reads());
            e.writeVarInt(h.writes().size());
            for (LogRecord.Written w : h.writes()) {
                CoreWire.writeKey(e, w.key());
                e.writeVarInt(w.writeSeq());
                e.writeVarLong(w.orderKey());
            }
            return List.of(new Entry(Cf.HISTORY, txnKey(h.txn(), PRECOMMIT, 0), e.toByteArray()));
        }
        if (r instanceof LogRecord.Decision d) {
            e.writeVarLong(d.round());
            e.writeVarLong(d.persisted());
            e.writeVarLong(d.epochBase());
            return List.of(new Entry(Cf.META, DECISION, e.toByteArray()));
        }
        if (r instanceof LogRecord.Finished f) {
            e.writeVarLong(f.round());
            e.writeVarLong(f.epochBase());
            return List.of(new Entry(Cf.META, FINISHED, e.toByteArray()));
        }
        return List.of();
    }

    private static void writeReads(Encoder e, List<LogRecord.Read> reads) {
        if (reads == null) {
            e.writeVarInt(0);
            return;
        }
        e.writeVarInt(reads.size() + 1);
        for (LogRecord.Read rd : reads) {
            CoreWire.writeKey(e, rd.key());
            e.writeVarLong(rd.writer());
            e.writeVarInt(rd.writeSeq());
        }
    }

    private static List<LogRecord.Read> readReads(Decoder d) {
        int n = d.readLength();
        if (n < 0) {
            return null;
        }
        List<LogRecord.Read> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new LogRecord.Read(CoreWire.readKey(d), d.readVarLong(), d.readVarInt()));
        }
        return out;
    }

    /** Decodes a {@code data} entry. @throws CodecException if it is corrupt */
    public LogRecord.Data decodeData(byte[] key, byte[] value) {
        Key k = CoreWire.readKey(dec(key));
        Decoder d = dec(value);
        return new LogRecord.Data(k, d.readVarLong(), d.readVarLong(), CoreWire.readRow(d));
    }

    /**
     * Adds a {@code log}, {@code meta} or {@code history} entry to {@code into}.
     *
     * @throws CodecException if it is corrupt
     */
    public void decode(Cf cf, byte[] key, byte[] value, LogContents into) {
        Decoder d = dec(value);
        switch (cf) {
            case META -> {
                if (Arrays.equals(key, PERSISTED)) {
                    into.persisted = d.readVarLong();
                } else if (Arrays.equals(key, DECISION)) {
                    into.pendingDecision = new LogRecord.Decision(d.readVarLong(), d.readVarLong(), d.readVarLong());
                } else if (Arrays.equals(key, FINISHED)) {
                    into.round = d.readVarLong();
                    into.epochBase = d.readVarLong();
                }
            }
            case HISTORY -> {
                long txn = txnOf(key);
                int type = d.readVarInt();
                List<LogRecord.Read> reads = readReads(d);
                int n = d.readVarInt();
                List<LogRecord.Written> ws = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    ws.add(new LogRecord.Written(CoreWire.readKey(d), d.readVarInt(), d.readVarLong()));
                }
                into.histories.add(new LogRecord.History(txn, type, reads, ws));
            }
            case LOG -> {
                if (key.length < 9) {
                    throw new CodecException("log key of " + key.length + " bytes");
                }
                long txn = txnOf(key);
                LogContents.TxnLog t = into.txn(txn);
                switch (key[8]) {
                    case OP -> {
                        int index = ((key[9] & 0xFF) << 24) | ((key[10] & 0xFF) << 16) | ((key[11] & 0xFF) << 8)
                                | (key[12] & 0xFF);
                        t.ops.add(new LogRecord.Op(txn, index, CoreWire.readKey(d), d.readVarLong(), d.readVarInt(),
                                CoreWire.readRow(d)));
                    }
                    case PRECOMMIT -> {
                        t.precommit = new LogRecord.Precommit(txn, d.readVarLong(), d.readVarInt(), d.readVarInt(),
                                d.readVarInt(), readReads(d));
                        int n = d.readVarInt();
                        for (int i = 0; i < n; i++) {
                            t.ops.add(new LogRecord.Op(txn, d.readVarInt(), CoreWire.readKey(d), d.readVarLong(),
                                    d.readVarInt(), CoreWire.readRow(d)));
                        }
                    }
                    case COMMIT -> t.commit = new LogRecord.Commit(txn, d.readVarLong());
                    case ABORT -> t.aborted = true;
                    default -> throw new CodecException("unknown log record kind " + key[8]);
                }
            }
            default -> throw new CodecException("not a log entry: " + cf);
        }
    }
}
