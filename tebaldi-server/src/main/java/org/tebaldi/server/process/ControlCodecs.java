package org.tebaldi.server.process;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;
import org.tebaldi.core.codec.CoreWire;
import org.tebaldi.core.codec.Decoder;
import org.tebaldi.core.codec.Encoder;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/** Codecs of the process-mode control plane ({@link Control}, namespace {@code control}). */
public final class ControlCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "control";
    }

    @Override
    @SuppressWarnings("unchecked")
    public void register(CodecRegistrar r) {
        r.add("LoadRows", Control.LoadRows.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            CoreWire.writeKeys(o, x.keys());
            writeRows(o, x.rows());
        }, i -> new Control.LoadRows(i.readVarLong(), CoreWire.readKeys(i), readRows(i))));
        r.add("Ack", Control.Ack.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeString(x.error());
        }, i -> new Control.Ack(i.readVarLong(), i.readString())));
        r.add("ResetStats", Control.ResetStats.class, Codec.of((x, o) -> { }, i -> new Control.ResetStats()));
        r.add("Shutdown", Control.Shutdown.class, Codec.of((x, o) -> { }, i -> new Control.Shutdown()));
        r.add("StatusQuery", Control.StatusQuery.class, Codec.of((x, o) -> o.writeVarLong(x.reqId()),
                i -> new Control.StatusQuery(i.readVarLong())));
        r.add("Status", Control.Status.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarInt(x.failures());
            o.writeString(x.firstFailure());
            o.writeValue(x.messages());
            o.writeVarLong(x.dropped());
            o.writeVarInt(x.treeVersion());
            o.writeVarInt(x.live());
        }, i -> new Control.Status(i.readVarLong(), i.readVarInt(), i.readString(),
                (Map<String, Long>) (Map<?, ?>) i.readValue(), i.readVarLong(), i.readVarInt(), i.readVarInt())));
        r.add("ReplicationQuery", Control.ReplicationQuery.class, Codec.of((x, o) -> o.writeVarLong(x.reqId()),
                i -> new Control.ReplicationQuery(i.readVarLong())));
        r.add("ReplicationCounters", Control.ReplicationCounters.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.shippedRecords());
            o.writeVarLong(x.acknowledgedWrites());
            o.writeVarLong(x.waitedWrites());
            o.writeVarLong(x.resent());
            o.writeVarLong(x.appliedRecords());
            o.writeVarLong(x.innerHostWaits());
            o.writeVarLong(x.backupReads());
            o.writeVarLong(x.backupFallbacks());
            o.writeVarLong(x.lagMicros());
            o.writeVarLong(x.lagSamples());
        }, i -> new Control.ReplicationCounters(i.readVarLong(), i.readVarLong(), i.readVarLong(), i.readVarLong(),
                i.readVarLong(), i.readVarLong(), i.readVarLong(), i.readVarLong(), i.readVarLong(), i.readVarLong(),
                i.readVarLong())));
        r.add("CollectHistory", Control.CollectHistory.class, Codec.of((x, o) -> o.writeVarLong(x.reqId()),
                i -> new Control.CollectHistory(i.readVarLong())));
        r.add("CollectRows", Control.CollectRows.class, Codec.of((x, o) -> o.writeVarLong(x.reqId()),
                i -> new Control.CollectRows(i.readVarLong())));
        r.add("RowsChunk", Control.RowsChunk.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeBoolean(x.last());
            CoreWire.writeKeys(o, x.keys());
            writeRows(o, x.rows());
        }, i -> new Control.RowsChunk(i.readVarLong(), i.readBoolean(), CoreWire.readKeys(i), readRows(i))));
        r.add("HistoryChunk", Control.HistoryChunk.class, Codec.of(ControlCodecs::writeHistory,
                ControlCodecs::readHistory));
    }

    private static void writeRows(Encoder o, Row[] rows) {
        o.writeVarInt(rows.length);
        for (Row x : rows) {
            CoreWire.writeRow(o, x);
        }
    }

    private static Row[] readRows(Decoder i) {
        Row[] rows = new Row[count(i)];
        for (int k = 0; k < rows.length; k++) {
            rows[k] = CoreWire.readRow(i);
        }
        return rows;
    }

    private static int count(Decoder i) {
        int n = i.readVarInt();
        if (n < 0 || n > i.remaining()) {
            throw new CodecException("count " + n + " out of range");
        }
        return n;
    }

    private static void writeHistory(Control.HistoryChunk x, Encoder o) {
        o.writeVarLong(x.reqId());
        o.writeBoolean(x.last());
        o.writeVarInt(x.reads().size());
        for (HistoryLog.Read r : x.reads()) {
            o.writeVarLong(r.reader());
            CoreWire.writeKey(o, r.key());
            o.writeVarLong(r.writer());
            o.writeVarLong(r.writeSeq());
        }
        o.writeVarInt(x.writes().size());
        for (HistoryLog.Write w : x.writes()) {
            o.writeVarLong(w.writer());
            CoreWire.writeKey(o, w.key());
            o.writeVarLong(w.writeSeq());
        }
        o.writeVarInt(x.outcomes().size());
        for (HistoryLog.Outcome c : x.outcomes()) {
            o.writeVarLong(c.txn());
            o.writeBoolean(c.committed());
            o.writeString(c.type());
        }
        o.writeVarInt(x.versionOrders().size());
        for (Map.Entry<Key, long[]> e : x.versionOrders().entrySet()) {
            CoreWire.writeKey(o, e.getKey());
            o.writeLongs(e.getValue());
        }
    }

    private static Control.HistoryChunk readHistory(Decoder i) {
        long req = i.readVarLong();
        boolean last = i.readBoolean();
        int n = count(i);
        List<HistoryLog.Read> reads = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            reads.add(new HistoryLog.Read(i.readVarLong(), CoreWire.readKey(i), i.readVarLong(), (int) i.readVarLong()));
        }
        n = count(i);
        List<HistoryLog.Write> writes = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            writes.add(new HistoryLog.Write(i.readVarLong(), CoreWire.readKey(i), (int) i.readVarLong()));
        }
        n = count(i);
        List<HistoryLog.Outcome> outcomes = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            outcomes.add(new HistoryLog.Outcome(i.readVarLong(), i.readBoolean(), i.readString()));
        }
        n = count(i);
        Map<Key, long[]> orders = new LinkedHashMap<>();
        for (int k = 0; k < n; k++) {
            orders.put(CoreWire.readKey(i), i.readLongs());
        }
        return new Control.HistoryChunk(req, last, reads, writes, outcomes, orders);
    }
}
