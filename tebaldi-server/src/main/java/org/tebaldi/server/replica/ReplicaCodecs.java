package org.tebaldi.server.replica;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;
import org.tebaldi.core.codec.CoreWire;
import org.tebaldi.server.durability.LogFormat;
import org.tebaldi.server.durability.LogRecord;

/** Wire codecs of {@link ReplicaMessages} (namespace {@code replica}), for process mode's Netty transport. */
public final class ReplicaCodecs implements CodecProvider {
    private static final int CLEAR = LogFormat.Cf.values().length;

    @Override
    public String namespace() {
        return "replica";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("Ship", ReplicaMessages.Ship.class, Codec.of((x, o) -> {
            o.writeVarInt(x.partition());
            o.writeVarLong(x.seq());
            o.writeBoolean(x.ack());
            o.writeVarInt(x.records().size());
            for (LogRecord rec : x.records()) {
                if (rec instanceof LogRecord.Encoded e) {
                    o.writeVarInt(e.cf().ordinal());
                    o.writeBytes(e.key());
                    o.writeBytes(e.value());
                } else if (rec instanceof LogRecord.ClearLog) {
                    o.writeVarInt(CLEAR);
                } else {
                    throw new CodecException("a shipped write holds only encoded entries, not " + rec);
                }
            }
        }, i -> {
            int p = i.readVarInt();
            long seq = i.readVarLong();
            boolean ack = i.readBoolean();
            int n = i.readVarInt();
            List<LogRecord> recs = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                int cf = i.readVarInt();
                if (cf == CLEAR) {
                    recs.add(new LogRecord.ClearLog());
                } else if (cf >= 0 && cf < CLEAR) {
                    recs.add(new LogRecord.Encoded(LogFormat.Cf.values()[cf], i.readBytes(), i.readBytes()));
                } else {
                    throw new CodecException("unknown column family " + cf + " in a shipped write");
                }
            }
            return new ReplicaMessages.Ship(p, seq, ack, recs);
        }));
        r.add("View", ReplicaMessages.View.class, Codec.of((x, o) -> {
            o.writeVarInt(x.partition());
            o.writeVarLong(x.seq());
            o.writeVarInt(x.writes().size());
            for (ReplicaMessages.ViewWrite w : x.writes()) {
                CoreWire.writeKey(o, w.key());
                o.writeLong(w.stamp());
                o.writeVarLong(w.writer());
                o.writeVarInt(w.writeSeq());
                o.writeLong(w.epoch());
                CoreWire.writeRow(o, w.row());
            }
            o.writeLong(x.watermark());
            o.writeLong(x.oldestCommitMicros());
        }, i -> {
            int p = i.readVarInt();
            long seq = i.readVarLong();
            int n = i.readVarInt();
            List<ReplicaMessages.ViewWrite> ws = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                ws.add(new ReplicaMessages.ViewWrite(CoreWire.readKey(i), i.readLong(), i.readVarLong(), i.readVarInt(),
                        i.readLong(), CoreWire.readRow(i)));
            }
            return new ReplicaMessages.View(p, seq, ws, i.readLong(), i.readLong());
        }));
        r.add("Read", ReplicaMessages.Read.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarInt(x.partition());
            CoreWire.writeKey(o, x.key());
            o.writeLong(x.snapshot());
        }, i -> new ReplicaMessages.Read(i.readVarLong(), i.readVarInt(), CoreWire.readKey(i), i.readLong())));
        r.add("ReadReply", ReplicaMessages.ReadReply.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeBoolean(x.served());
            CoreWire.writeRow(o, x.row());
            o.writeVarLong(x.writer());
            o.writeVarInt(x.writeSeq());
            o.writeLong(x.epoch());
        }, i -> new ReplicaMessages.ReadReply(i.readVarLong(), i.readBoolean(), CoreWire.readRow(i), i.readVarLong(),
                i.readVarInt(), i.readLong())));
        r.add("Ack", ReplicaMessages.Ack.class, Codec.of((x, o) -> {
            o.writeVarInt(x.partition());
            o.writeVarLong(x.seq());
        }, i -> new ReplicaMessages.Ack(i.readVarInt(), i.readVarLong())));
    }
}
