package org.tebaldi.server.replica;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;
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
        r.add("Ack", ReplicaMessages.Ack.class, Codec.of((x, o) -> {
            o.writeVarInt(x.partition());
            o.writeVarLong(x.seq());
        }, i -> new ReplicaMessages.Ack(i.readVarInt(), i.readVarLong())));
    }
}
