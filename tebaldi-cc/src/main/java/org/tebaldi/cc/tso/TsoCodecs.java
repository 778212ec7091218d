package org.tebaldi.cc.tso;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;
import org.tebaldi.core.codec.CoreWire;

/** Codecs of TSO's payloads (namespace {@code tso}): {@link TsoMessages} meta, promises and their end, DST's seen timestamps. */
public final class TsoCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "tso";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("Meta", TsoMessages.Meta.class, Codec.of((x, o) -> o.writeVarLong(x.ts()),
                i -> new TsoMessages.Meta(i.readVarLong())));
        r.add("Promise", TsoMessages.Promise.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeVarLong(x.ts());
            CoreWire.writeKeys(o, x.keys());
        }, i -> new TsoMessages.Promise(i.readVarLong(), i.readVarLong(), CoreWire.readKeys(i))));
        r.add("PromiseDone", TsoMessages.PromiseDone.class, Codec.of((x, o) -> o.writeVarLong(x.txnId()),
                i -> new TsoMessages.PromiseDone(i.readVarLong())));
        r.add("Seen", TsoMessages.Seen.class, Codec.of((x, o) -> o.writeVarLong(x.ts()),
                i -> new TsoMessages.Seen(i.readVarLong())));
    }
}
