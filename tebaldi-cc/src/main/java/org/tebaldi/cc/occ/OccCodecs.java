package org.tebaldi.cc.occ;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;

/** Codecs of OCC's payloads (namespace {@code occ}): {@link OccMessages}. */
public final class OccCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "occ";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("Lock", OccMessages.Lock.class, Codec.of((x, o) -> o.writeVarLong(x.txnId()),
                i -> new OccMessages.Lock(i.readVarLong())));
        r.add("Locked", OccMessages.Locked.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeString(x.failure());
        }, i -> new OccMessages.Locked(i.readVarLong(), i.readString())));
        r.add("MaxTid", OccMessages.MaxTid.class, Codec.of((x, o) -> o.writeVarLong(x.tid()),
                i -> new OccMessages.MaxTid(i.readVarLong())));
        r.add("CommitTid", OccMessages.CommitTid.class, Codec.of((x, o) -> o.writeVarLong(x.tid()),
                i -> new OccMessages.CommitTid(i.readVarLong())));
    }
}
