package org.tebaldi.server.epoch;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;

/** Wire codecs of {@link EpochMessages} (namespace {@code epoch}), for process mode's Netty transport. */
public final class EpochCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "epoch";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("Prepare", EpochMessages.Prepare.class, Codec.of((x, o) -> o.writeVarLong(x.epoch()),
                i -> new EpochMessages.Prepare(i.readVarLong())));
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
