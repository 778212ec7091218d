package org.tebaldi.cc.chiller;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;

/** Codecs of Chiller's payloads (namespace {@code chiller}): {@link InnerHost}. */
public final class ChillerCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "chiller";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("InnerHost", InnerHost.class, Codec.of((x, o) -> o.writeVarLong(x.server()),
                i -> new InnerHost((int) i.readVarLong())));
    }
}
