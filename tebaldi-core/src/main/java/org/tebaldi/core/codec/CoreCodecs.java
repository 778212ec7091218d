package org.tebaldi.core.codec;

import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.proc.ExprUpdate;
import org.tebaldi.core.proc.ExprUpdateCodec;
import org.tebaldi.core.service.TsMessages;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;

/**
 * Codecs of tebaldi-core's own types (namespace {@code core}): keys, rows, operations, inputs, stored-procedure
 * updates, dependencies, the mechanism envelope and the timestamp service's messages.
 */
public final class CoreCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "core";
    }

    @Override
    public void register(CodecRegistrar r) {
        r.add("Key", Key.class, Codec.of((k, o) -> CoreWire.writeKey(o, k), CoreWire::readKey));
        r.add("Row", Row.class, Codec.of((x, o) -> CoreWire.writeRow(o, x), CoreWire::readRow));
        r.add("Op", Op.class, Codec.of((x, o) -> CoreWire.writeOp(o, x), CoreWire::readOp));
        r.add("Inputs", Inputs.class, Codec.of((x, o) -> CoreWire.writeInputs(o, x), CoreWire::readInputs));
        r.add("ExprUpdate", ExprUpdate.class, new ExprUpdateCodec());
        r.add("ListAppend", org.tebaldi.core.history.listappend.AppendUpdate.class,
                org.tebaldi.core.history.listappend.AppendUpdate.CODEC);
        r.add("TxnDep", TxnDep.class, Codec.of(CoreCodecs::writeDep, CoreCodecs::readDep));
        r.add("CcEnvelope", CcEnvelope.class, Codec.of((x, o) -> {
            o.writeVarLong(x.ccNode());
            o.writeValue(x.payload());
        }, i -> new CcEnvelope((int) i.readVarLong(), i.readValue())));
        r.add("BlockingBatch", org.tebaldi.core.profile.BlockingBatch.class, Codec.of((x, o) -> o.writeLongs(x.events()),
                i -> new org.tebaldi.core.profile.BlockingBatch(i.readLongs())));
        r.add("ts.Next", TsMessages.Next.class, Codec.of((x, o) -> o.writeVarLong(x.reqId()),
                i -> new TsMessages.Next(i.readVarLong())));
        r.add("ts.OpenBatch", TsMessages.OpenBatch.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.ccNode());
        }, i -> new TsMessages.OpenBatch(i.readVarLong(), (int) i.readVarLong())));
        r.add("ts.FinishBatch", TsMessages.FinishBatch.class, Codec.of((x, o) -> {
            o.writeVarLong(x.ccNode());
            o.writeVarLong(x.ts());
        }, i -> new TsMessages.FinishBatch((int) i.readVarLong(), i.readVarLong())));
        r.add("ts.AwaitBelow", TsMessages.AwaitBelow.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.ccNode());
            o.writeVarLong(x.ts());
        }, i -> new TsMessages.AwaitBelow(i.readVarLong(), (int) i.readVarLong(), i.readVarLong())));
        r.add("ts.GetWatermark", TsMessages.GetWatermark.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.ccNode());
        }, i -> new TsMessages.GetWatermark(i.readVarLong(), (int) i.readVarLong())));
        r.add("ts.Issued", TsMessages.Issued.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.ts());
        }, i -> new TsMessages.Issued(i.readVarLong(), i.readVarLong())));
        r.add("ts.BelowDone", TsMessages.BelowDone.class, Codec.of((x, o) -> o.writeVarLong(x.reqId()),
                i -> new TsMessages.BelowDone(i.readVarLong())));
        r.add("ts.Watermark", TsMessages.Watermark.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.watermark());
        }, i -> new TsMessages.Watermark(i.readVarLong(), i.readVarLong())));
        r.add("ts.Forget", TsMessages.Forget.class, Codec.of((x, o) -> o.writeVarLong(x.ccNode()),
                i -> new TsMessages.Forget((int) i.readVarLong())));
        r.add("ts.Sync", TsMessages.Sync.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.ccNode());
            o.writeLongs(x.held());
            o.writeLongs(x.asked());
        }, i -> new TsMessages.Sync(i.readVarLong(), (int) i.readVarLong(), i.readLongs(), i.readLongs())));
        r.add("ts.Synced", TsMessages.Synced.class, Codec.of((x, o) -> o.writeVarLong(x.reqId()),
                i -> new TsMessages.Synced(i.readVarLong())));
    }

    /** Writes a dependency without tag. */
    public static void writeDep(TxnDep d, Encoder o) {
        o.writeVarLong(d.txnId());
        o.writeVarInt(d.typeId());
        o.writeVarInt(d.leaf());
        o.writeVarLong(d.instance());
        o.writeVarInt(d.level());
    }

    /** Reads a dependency written by {@link #writeDep}. */
    public static TxnDep readDep(Decoder i) {
        return new TxnDep(i.readVarLong(), i.readVarInt(), i.readVarInt(), i.readVarLong(), i.readVarInt());
    }
}
