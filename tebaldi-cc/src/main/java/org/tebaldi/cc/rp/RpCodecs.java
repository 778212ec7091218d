package org.tebaldi.cc.rp;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;

/** Codecs of runtime pipelining's payloads (namespace {@code rp}): {@link RpMessages}. */
public final class RpCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "rp";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("Meta", RpMessages.Meta.class, Codec.of((x, o) -> {
            o.writeVarInt(x.step() + 1);
            o.writeVarInt(x.released() + 1);
        }, i -> new RpMessages.Meta(i.readVarInt() - 1, i.readVarInt() - 1)));
        r.add("Release", RpMessages.Release.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeVarInt(x.upTo() + 1);
        }, i -> new RpMessages.Release(i.readVarLong(), i.readVarInt() - 1)));
        r.add("Watch", RpMessages.Watch.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.txnId());
            o.writeInt(x.entered());
            o.writeInt(x.released());
        }, i -> new RpMessages.Watch(i.readVarLong(), i.readVarLong(), i.readInt(), i.readInt())));
        r.add("Known", RpMessages.Known.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeVarInt(x.released() + 1);
            o.writeBoolean(x.done());
        }, i -> new RpMessages.Known(i.readVarLong(), i.readVarInt() - 1, i.readBoolean())));
        r.add("Progress", RpMessages.Progress.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.txnId());
            o.writeInt(x.entered());
            o.writeInt(x.released());
            o.writeBoolean(x.done());
        }, i -> new RpMessages.Progress(i.readVarLong(), i.readVarLong(), i.readInt(), i.readInt(), i.readBoolean())));
    }
}
