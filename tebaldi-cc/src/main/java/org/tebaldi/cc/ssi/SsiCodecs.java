package org.tebaldi.cc.ssi;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;

/**
 * Codecs of SSI's payloads (namespace {@code ssi}): the per-level metadata {@link SsiMeta}, the commit metadata
 * {@link CommitTs}, the DS reports {@link AntiDependency} and the batch manager's {@link PivotMessages}.
 */
public final class SsiCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "ssi";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("Meta", SsiMeta.class, Codec.of((x, o) -> o.writeVarLong(x.startTs()), i -> new SsiMeta(i.readVarLong())));
        r.add("CommitTs", CommitTs.class, Codec.of((x, o) -> o.writeVarLong(x.cts()), i -> new CommitTs(i.readVarLong())));
        r.add("DstStart", DstStart.class, Codec.of((x, o) -> o.writeVarLong(x.lowerBound()),
                i -> new DstStart(i.readVarLong())));
        r.add("DstBound", DstBound.class, Codec.of((x, o) -> o.writeVarLong(x.bound()), i -> new DstBound(i.readVarLong())));
        r.add("AntiDependency", AntiDependency.class, Codec.of((x, o) -> {
            o.writeVarLong(x.readerBatch());
            o.writeVarLong(x.writerBatch());
        }, i -> new AntiDependency(i.readVarLong(), i.readVarLong())));
        r.add("Check", PivotMessages.Check.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.batch());
            o.writeVarLong(x.cts());
            o.writeLongs(x.edges());
        }, i -> new PivotMessages.Check(i.readVarLong(), i.readVarLong(), i.readVarLong(), i.readLongs())));
        r.add("Verdict", PivotMessages.Verdict.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeBoolean(x.abort());
            o.writeString(x.reason());
        }, i -> new PivotMessages.Verdict(i.readVarLong(), i.readBoolean(), i.readString())));
    }
}
