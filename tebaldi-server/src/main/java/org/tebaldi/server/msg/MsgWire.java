package org.tebaldi.server.msg;

import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.codec.CoreCodecs;
import org.tebaldi.core.codec.Decoder;
import org.tebaldi.core.codec.Encoder;

/** Untagged layouts of the parts messages share: transaction headers, dependency lists, level reports. */
final class MsgWire {
    private MsgWire() {
    }

    static void writeHeader(Encoder o, TxnHeader h) {
        o.writeVarLong(h.txnId());
        o.writeVarInt(h.typeId());
        o.writeVarInt(h.leaf());
        o.writeVarLong(h.instance());
        o.writeVarLong(h.priority());
    }

    static TxnHeader readHeader(Decoder i) {
        return new TxnHeader(i.readVarLong(), i.readVarInt(), i.readVarInt(), i.readVarLong(), i.readVarLong());
    }

    static void writeDeps(Encoder o, TxnDep[] deps) {
        if (deps == null) {
            o.writeVarInt(0);
            return;
        }
        o.writeVarInt(deps.length + 1);
        for (TxnDep d : deps) {
            CoreCodecs.writeDep(d, o);
        }
    }

    static TxnDep[] readDeps(Decoder i) {
        int n = i.readLength();
        if (n < 0) {
            return null;
        }
        TxnDep[] d = new TxnDep[n];
        for (int k = 0; k < n; k++) {
            d[k] = CoreCodecs.readDep(i);
        }
        return d;
    }

    static void writeLongs(Encoder o, long[] a) {
        o.writeVarInt(a.length);
        for (long v : a) {
            o.writeVarLong(v);
        }
    }

    static long[] readLongs(Decoder i) {
        int n = i.readVarInt();
        if (n < 0 || n > i.remaining()) {
            throw new org.tebaldi.core.codec.CodecException("long array length " + n + " out of range");
        }
        long[] a = new long[n];
        for (int k = 0; k < n; k++) {
            a[k] = i.readVarLong();
        }
        return a;
    }

    static void writeInts(Encoder o, int[] a) {
        o.writeVarInt(a.length);
        for (int v : a) {
            o.writeVarInt(v);
        }
    }

    static int[] readInts(Decoder i) {
        int n = i.readVarInt();
        if (n < 0 || n > i.remaining()) {
            throw new org.tebaldi.core.codec.CodecException("int array length " + n + " out of range");
        }
        int[] a = new int[n];
        for (int k = 0; k < n; k++) {
            a[k] = i.readVarInt();
        }
        return a;
    }

    static void writeReports(Encoder o, LevelReport[] rs) {
        if (rs == null) {
            o.writeVarInt(0);
            return;
        }
        o.writeVarInt(rs.length + 1);
        for (LevelReport r : rs) {
            o.writeVarInt(r.level());
            o.writeValue(r.report());
        }
    }

    static LevelReport[] readReports(Decoder i) {
        int n = i.readLength();
        if (n < 0) {
            return null;
        }
        LevelReport[] r = new LevelReport[n];
        for (int k = 0; k < n; k++) {
            int level = i.readVarInt();
            Object report = i.readValue();
            if (!(report instanceof org.tebaldi.core.cc.CcReport c)) {
                throw new org.tebaldi.core.codec.CodecException("a level report is a "
                        + (report == null ? "null" : report.getClass().getName()) + ", not a CcReport");
            }
            r[k] = new LevelReport(level, c);
        }
        return r;
    }
}
