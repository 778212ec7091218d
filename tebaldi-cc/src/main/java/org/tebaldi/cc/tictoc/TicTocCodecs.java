package org.tebaldi.cc.tictoc;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;

/** Codecs of TicToc's payloads (namespace {@code tictoc}): {@link TicTocMessages}. */
public final class TicTocCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "tictoc";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("CommitTs", TicTocMessages.CommitTs.class, Codec.of((x, o) -> o.writeVarLong(x.ts()),
                i -> new TicTocMessages.CommitTs(i.readVarLong())));
        r.add("Bound", TicTocMessages.Bound.class, Codec.of((x, o) -> o.writeVarLong(x.ts()),
                i -> new TicTocMessages.Bound(i.readVarLong())));
    }
}
