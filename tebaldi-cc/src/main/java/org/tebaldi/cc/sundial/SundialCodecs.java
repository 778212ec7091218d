package org.tebaldi.cc.sundial;

import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;
import org.tebaldi.core.codec.CoreWire;

/** Codecs of Sundial's payloads (namespace {@code sundial}): {@link SundialMessages}. */
public final class SundialCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "sundial";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("CommitTs", SundialMessages.CommitTs.class, Codec.of((x, o) -> o.writeVarLong(x.ts()),
                i -> new SundialMessages.CommitTs(i.readVarLong())));
        r.add("Bound", SundialMessages.Bound.class, Codec.of((x, o) -> o.writeVarLong(x.ts()),
                i -> new SundialMessages.Bound(i.readVarLong())));
        r.add("ReadLease", SundialMessages.ReadLease.class, Codec.of((x, o) -> {
            CoreWire.writeKey(o, x.key());
            CoreWire.writeRow(o, x.row());
            o.writeVarLong(x.writer());
            o.writeVarInt(x.writeSeq());
            o.writeVarLong(x.wts());
            o.writeVarLong(x.rts());
            o.writeVarLong(x.tabWts());
            o.writeVarLong(x.tabRts());
        }, i -> new SundialMessages.ReadLease(CoreWire.readKey(i), CoreWire.readRow(i), i.readVarLong(), i.readVarInt(),
                i.readVarLong(), i.readVarLong(), i.readVarLong(), i.readVarLong())));
        r.add("Wrote", SundialMessages.Wrote.class, Codec.of((x, o) -> {
            CoreWire.writeKey(o, x.key());
            CoreWire.writeRow(o, x.row());
            o.writeVarInt(x.writeSeq());
            o.writeVarLong(x.lockedWriter());
            o.writeVarInt(x.lockedSeq());
            o.writeVarLong(x.bound());
        }, i -> new SundialMessages.Wrote(CoreWire.readKey(i), CoreWire.readRow(i), i.readVarInt(), i.readVarLong(),
                i.readVarInt(), i.readVarLong())));
        r.add("Prepare", SundialMessages.Prepare.class, Codec.of((x, o) -> {
            o.writeVarLong(x.ts());
            o.writeVarInt(x.renewals().length + 1);
            for (SundialMessages.Renewal n : x.renewals()) {
                o.writeVarInt(n.ds());
                CoreWire.writeKey(o, n.key());
                o.writeVarLong(n.writer());
                o.writeVarInt(n.writeSeq());
            }
        }, i -> {
            long ts = i.readVarLong();
            SundialMessages.Renewal[] n = new SundialMessages.Renewal[Math.max(0, i.readLength())];
            for (int k = 0; k < n.length; k++) {
                n[k] = new SundialMessages.Renewal(i.readVarInt(), CoreWire.readKey(i), i.readVarLong(),
                        i.readVarInt());
            }
            return new SundialMessages.Prepare(ts, n);
        }));
        r.add("Renew", SundialMessages.Renew.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            CoreWire.writeKey(o, x.key());
            o.writeVarLong(x.writer());
            o.writeVarInt(x.writeSeq());
            o.writeVarLong(x.cts());
        }, i -> new SundialMessages.Renew(i.readVarLong(), CoreWire.readKey(i), i.readVarLong(), i.readVarInt(),
                i.readVarLong())));
        r.add("Renewed", SundialMessages.Renewed.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            CoreWire.writeKey(o, x.key());
            o.writeVarLong(x.writer());
            o.writeVarInt(x.writeSeq());
            o.writeBoolean(x.ok());
            o.writeString(x.why());
            o.writeVarLong(x.rts());
            o.writeVarLong(x.tabWts());
            o.writeVarLong(x.tabRts());
        }, i -> new SundialMessages.Renewed(i.readVarLong(), CoreWire.readKey(i), i.readVarLong(), i.readVarInt(),
                i.readBoolean(), i.readString(), i.readVarLong(), i.readVarLong(), i.readVarLong())));
        r.add("Fence", SundialMessages.Fence.class, Codec.of((x, o) -> {
            o.writeVarLong(x.id());
            o.writeBoolean(x.wholeServer());
            o.writeVarInt(x.versions().length + 1);
            for (SundialMessages.Settled v : x.versions()) {
                CoreWire.writeKey(o, v.key());
                o.writeVarLong(v.writer());
                o.writeVarInt(v.writeSeq());
                o.writeVarLong(v.wts());
            }
        }, i -> {
            long id = i.readVarLong();
            boolean whole = i.readBoolean();
            SundialMessages.Settled[] v = new SundialMessages.Settled[Math.max(0, i.readLength())];
            for (int k = 0; k < v.length; k++) {
                v[k] = new SundialMessages.Settled(CoreWire.readKey(i), i.readVarLong(), i.readVarInt(),
                        i.readVarLong());
            }
            return new SundialMessages.Fence(id, v, whole);
        }));
        r.add("Fenced", SundialMessages.Fenced.class, Codec.of((x, o) -> o.writeVarLong(x.id()),
                i -> new SundialMessages.Fenced(i.readVarLong())));
    }
}
