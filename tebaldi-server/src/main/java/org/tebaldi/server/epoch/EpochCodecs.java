package org.tebaldi.server.epoch;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;
import org.tebaldi.core.codec.CoreWire;
import org.tebaldi.server.msg.CommitRequest;

/** Wire codecs of {@link EpochMessages} (namespace {@code epoch}), for process mode's Netty transport. */
public final class EpochCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "epoch";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("Prepare", EpochMessages.Prepare.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            o.writeVarInt(x.coordinators().length);
            for (int c : x.coordinators()) {
                o.writeVarInt(c);
            }
        }, i -> {
            long e = i.readVarLong();
            int[] cs = new int[i.readVarInt()];
            for (int k = 0; k < cs.length; k++) {
                cs[k] = i.readVarInt();
            }
            return new EpochMessages.Prepare(e, cs);
        }));
        r.add("Members", EpochMessages.Members.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            o.writeVarInt(x.commits().length);
            for (CommitRequest c : x.commits()) {
                o.writeVarLong(c.txnId());
                CoreWire.writeValues(o, c.meta());
                o.writeVarLong(c.epoch());
            }
        }, i -> {
            long e = i.readVarLong();
            CommitRequest[] cs = new CommitRequest[i.readVarInt()];
            for (int k = 0; k < cs.length; k++) {
                cs[k] = new CommitRequest(i.readVarLong(), CoreWire.readValues(i), i.readVarLong());
            }
            return new EpochMessages.Members(e, cs);
        }));
        r.add("Prepared", EpochMessages.Prepared.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            o.writeBoolean(x.ok());
        }, i -> new EpochMessages.Prepared(i.readVarLong(), i.readBoolean())));
        r.add("Decision", EpochMessages.Decision.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            o.writeBoolean(x.commit());
        }, i -> new EpochMessages.Decision(i.readVarLong(), i.readBoolean())));
        r.add("Done", EpochMessages.Done.class, Codec.of((x, o) -> o.writeVarLong(x.epoch()),
                i -> new EpochMessages.Done(i.readVarLong())));
    }
}
