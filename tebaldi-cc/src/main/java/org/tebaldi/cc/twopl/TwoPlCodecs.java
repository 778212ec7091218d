package org.tebaldi.cc.twopl;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;

/** Codecs of 2PL's payloads (namespace {@code 2pl}): {@link TwoPlMessages}. */
public final class TwoPlCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "2pl";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("Wound", TwoPlMessages.Wound.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeString(x.why());
        }, i -> new TwoPlMessages.Wound(i.readVarLong(), i.readString())));
    }
}
