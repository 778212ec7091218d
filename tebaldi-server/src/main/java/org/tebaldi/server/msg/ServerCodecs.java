package org.tebaldi.server.msg;

import java.util.Map;
import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.CodecProvider;
import org.tebaldi.core.codec.CodecRegistrar;
import org.tebaldi.core.codec.CoreWire;

/**
 * Codecs of the TC, DS and client messages (namespace {@code server}). Per-level CC metadata, reports and
 * outputs are tagged values, so each mechanism's own codecs ({@code ssi}, {@code tso}, ...) encode them.
 */
public final class ServerCodecs implements CodecProvider {
    @Override
    public String namespace() {
        return "server";
    }

    @Override
    @SuppressWarnings("unchecked")
    public void register(CodecRegistrar r) {
        registerReconfig(r);
        registerDurability(r);
        r.add("AbortRequest", AbortRequest.class, Codec.of((x, o) -> o.writeVarLong(x.txnId()),
                i -> new AbortRequest(i.readVarLong())));
        r.add("OutcomeQuery", OutcomeQuery.class, Codec.of((x, o) -> o.writeVarLong(x.txnId()),
                i -> new OutcomeQuery(i.readVarLong())));
        r.add("AbortTxn", AbortTxn.class, Codec.of((x, o) -> o.writeVarLong(x.txnId()),
                i -> new AbortTxn(i.readVarLong())));
        r.add("CommitTxn", CommitTxn.class, Codec.of((x, o) -> o.writeVarLong(x.txnId()),
                i -> new CommitTxn(i.readVarLong())));
        r.add("BeginTxn", BeginTxn.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarInt(x.typeId());
            CoreWire.writeInputs(o, x.inputs());
            o.writeVarLong(x.priority());
        }, i -> new BeginTxn(i.readVarLong(), i.readVarInt(), CoreWire.readInputs(i), i.readVarLong())));
        r.add("CallProc", CallProc.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarInt(x.typeId());
            CoreWire.writeInputs(o, x.inputs());
            o.writeVarLong(x.priority());
        }, i -> new CallProc(i.readVarLong(), i.readVarInt(), CoreWire.readInputs(i), i.readVarLong())));
        r.add("CommitRequest", CommitRequest.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            CoreWire.writeValues(o, x.meta());
            o.writeVarLong(x.epoch());
        }, i -> new CommitRequest(i.readVarLong(), CoreWire.readValues(i), i.readVarLong())));
        r.add("ValidateRequest", ValidateRequest.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            CoreWire.writeValues(o, x.meta());
            o.writeVarInt(x.writers());
        }, i -> new ValidateRequest(i.readVarLong(), CoreWire.readValues(i), i.readVarInt())));
        r.add("ExecRequest", ExecRequest.class, Codec.of((x, o) -> {
            MsgWire.writeHeader(o, x.header());
            o.writeVarInt(x.opId());
            CoreWire.writeOp(o, x.op());
            CoreWire.writeValues(o, x.meta());
        }, i -> new ExecRequest(MsgWire.readHeader(i), i.readVarInt(), CoreWire.readOp(i), CoreWire.readValues(i))));
        r.add("ExecReply", ExecReply.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeVarInt(x.opId());
            o.writeBoolean(x.ok());
            CoreWire.writeRow(o, x.row());
            o.writeString(x.reason());
            o.writeBoolean(x.retryable());
            MsgWire.writeDeps(o, x.deps());
            MsgWire.writeReports(o, x.reports());
        }, i -> new ExecReply(i.readVarLong(), i.readVarInt(), i.readBoolean(), CoreWire.readRow(i), i.readString(),
                i.readBoolean(), MsgWire.readDeps(i), MsgWire.readReports(i))));
        r.add("ExecBatch", ExecBatch.class, Codec.of((x, o) -> {
            MsgWire.writeHeader(o, x.header());
            o.writeVarInt(x.ops().length);
            for (int k = 0; k < x.ops().length; k++) {
                o.writeVarInt(x.opIds()[k]);
                CoreWire.writeOp(o, x.ops()[k]);
            }
            CoreWire.writeValues(o, x.meta());
        }, i -> {
            TxnHeader h = MsgWire.readHeader(i);
            int n = i.readVarInt();
            int[] ids = new int[n];
            org.tebaldi.core.txn.Op[] ops = new org.tebaldi.core.txn.Op[n];
            for (int k = 0; k < n; k++) {
                ids[k] = i.readVarInt();
                ops[k] = CoreWire.readOp(i);
            }
            return new ExecBatch(h, ids, ops, CoreWire.readValues(i));
        }));
        r.add("TxnOps", TxnOps.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeVarInt(x.firstOpId());
            o.writeVarInt(x.ops().length);
            for (org.tebaldi.core.txn.Op op : x.ops()) {
                CoreWire.writeOp(o, op);
            }
        }, i -> {
            long id = i.readVarLong();
            int first = i.readVarInt();
            org.tebaldi.core.txn.Op[] ops = new org.tebaldi.core.txn.Op[i.readVarInt()];
            for (int k = 0; k < ops.length; k++) {
                ops[k] = CoreWire.readOp(i);
            }
            return new TxnOps(id, first, ops);
        }));
        r.add("OpsDone", OpsDone.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeVarInt(x.firstOpId());
            o.writeVarInt(x.rows().length);
            for (org.tebaldi.core.model.Row row : x.rows()) {
                CoreWire.writeRow(o, row);
            }
        }, i -> {
            long id = i.readVarLong();
            int first = i.readVarInt();
            org.tebaldi.core.model.Row[] rows = new org.tebaldi.core.model.Row[i.readVarInt()];
            for (int k = 0; k < rows.length; k++) {
                rows[k] = CoreWire.readRow(i);
            }
            return new OpsDone(id, first, rows);
        }));
        r.add("ExecReplies", ExecReplies.class, Codec.of((x, o) -> {
            o.writeVarInt(x.replies().length);
            for (ExecReply y : x.replies()) {
                o.writeValue(y);
            }
        }, i -> {
            ExecReply[] rs = new ExecReply[i.readVarInt()];
            for (int k = 0; k < rs.length; k++) {
                rs[k] = (ExecReply) i.readValue();
            }
            return new ExecReplies(rs);
        }));
        r.add("ValidateReply", ValidateReply.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeBoolean(x.ok());
            o.writeString(x.reason());
            o.writeBoolean(x.retryable());
            MsgWire.writeDeps(o, x.deps());
            MsgWire.writeReports(o, x.reports());
            o.writeVarLong(x.epoch());
        }, i -> new ValidateReply(i.readVarLong(), i.readBoolean(), i.readString(), i.readBoolean(),
                MsgWire.readDeps(i), MsgWire.readReports(i), i.readVarLong())));
        r.add("OpDone", OpDone.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeVarInt(x.opId());
            CoreWire.writeRow(o, x.row());
        }, i -> new OpDone(i.readVarLong(), i.readVarInt(), CoreWire.readRow(i))));
        r.add("TxnBegun", TxnBegun.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.txnId());
        }, i -> new TxnBegun(i.readVarLong(), i.readVarLong())));
        r.add("TxnOp", TxnOp.class, Codec.of((x, o) -> {
            o.writeVarLong(x.txnId());
            o.writeVarInt(x.opId());
            CoreWire.writeOp(o, x.op());
        }, i -> new TxnOp(i.readVarLong(), i.readVarInt(), CoreWire.readOp(i))));
        r.add("TxnEnded", TxnEnded.class, Codec.of((x, o) -> {
            o.writeVarLong(x.reqId());
            o.writeVarLong(x.txnId());
            o.writeBoolean(x.committed());
            o.writeString(x.reason());
            o.writeBoolean(x.retryable());
            o.writeValue(x.outputs());
            o.writeBoolean(x.durable());
        }, i -> {
            long req = i.readVarLong();
            long id = i.readVarLong();
            boolean c = i.readBoolean();
            String reason = i.readString();
            boolean retry = i.readBoolean();
            Object out = i.readValue();
            if (out != null && !(out instanceof Map)) {
                throw new CodecException("TxnEnded outputs is a " + out.getClass().getName());
            }
            boolean durable = i.readBoolean();
            return new TxnEnded(req, id, c, reason, retry, out == null ? null : (Map<String, Object>) out, durable);
        }));
    }

    /** Asynchronous flushing in GCP epochs and the recovery protocol (dissertation §4.5.4). */
    private static void registerDurability(CodecRegistrar r) {
        r.add("durable.Persisted", Durable.Persisted.class, Codec.of((x, o) -> {
            o.writeVarInt(x.ds());
            o.writeVarLong(x.round());
            o.writeVarLong(x.epoch());
        }, i -> new Durable.Persisted(i.readVarInt(), i.readVarLong(), i.readVarLong())));
        r.add("durable.Txns", Durable.Txns.class, Codec.of((x, o) -> {
            o.writeVarLong(x.seq());
            MsgWire.writeLongs(o, x.txnIds());
            o.writeBoolean(x.lost());
            o.writeString(x.reason());
        }, i -> new Durable.Txns(i.readVarLong(), MsgWire.readLongs(i), i.readBoolean(), i.readString())));
        r.add("durable.Ack", Durable.Ack.class, Codec.of((x, o) -> o.writeVarLong(x.seq()),
                i -> new Durable.Ack(i.readVarLong())));
        r.add("recovery.Request", Recovery.Request.class, Codec.of((x, o) -> o.writeVarInt(x.ds()),
                i -> new Recovery.Request(i.readVarInt())));
        r.add("recovery.Begin", Recovery.Begin.class, Codec.of((x, o) -> o.writeVarLong(x.round()),
                i -> new Recovery.Begin(i.readVarLong())));
        r.add("recovery.BeginAck", Recovery.BeginAck.class, Codec.of((x, o) -> {
            o.writeVarLong(x.round());
            o.writeVarInt(x.tc());
        }, i -> new Recovery.BeginAck(i.readVarLong(), i.readVarInt())));
        r.add("recovery.Summary", Recovery.Summary.class, Codec.of((x, o) -> {
            o.writeVarLong(x.round());
            o.writeVarInt(x.ds());
            o.writeVarLong(x.persisted());
            o.writeVarLong(x.maxEpoch());
            o.writeVarLong(x.pendingRound());
            o.writeVarLong(x.finishedRound());
            MsgWire.writeLongs(o, x.txns());
            o.writeBytes(x.flags());
            MsgWire.writeInts(o, x.participants());
            MsgWire.writeLongs(o, x.precommitEpochs());
            MsgWire.writeLongs(o, x.commitEpochs());
        }, i -> new Recovery.Summary(i.readVarLong(), i.readVarInt(), i.readVarLong(), i.readVarLong(),
                i.readVarLong(), i.readVarLong(), MsgWire.readLongs(i), i.readBytes(), MsgWire.readInts(i), MsgWire.readLongs(i),
                MsgWire.readLongs(i))));
        r.add("recovery.Decide", Recovery.Decide.class, Codec.of((x, o) -> {
            o.writeVarLong(x.round());
            o.writeVarLong(x.persisted());
            o.writeVarLong(x.epochBase());
            MsgWire.writeLongs(o, x.keep());
        }, i -> new Recovery.Decide(i.readVarLong(), i.readVarLong(), i.readVarLong(), MsgWire.readLongs(i))));
        r.add("recovery.Applied", Recovery.Applied.class, Codec.of((x, o) -> {
            o.writeVarLong(x.round());
            o.writeVarInt(x.ds());
            o.writeVarLong(x.rows());
            o.writeVarInt(x.kept());
            o.writeVarInt(x.dropped());
        }, i -> new Recovery.Applied(i.readVarLong(), i.readVarInt(), i.readVarLong(), i.readVarInt(),
                i.readVarInt())));
        r.add("recovery.Finish", Recovery.Finish.class, Codec.of((x, o) -> o.writeVarLong(x.round()),
                i -> new Recovery.Finish(i.readVarLong())));
        r.add("recovery.Finished", Recovery.Finished.class, Codec.of((x, o) -> {
            o.writeVarLong(x.round());
            o.writeVarInt(x.ds());
        }, i -> new Recovery.Finished(i.readVarLong(), i.readVarInt())));
        r.add("recovery.End", Recovery.End.class, Codec.of((x, o) -> {
            o.writeVarLong(x.round());
            o.writeVarLong(x.persisted());
            o.writeVarLong(x.epochBase());
        }, i -> new Recovery.End(i.readVarLong(), i.readVarLong(), i.readVarLong())));
        r.add("recovery.EndAck", Recovery.EndAck.class, Codec.of((x, o) -> {
            o.writeVarLong(x.round());
            o.writeVarInt(x.tc());
        }, i -> new Recovery.EndAck(i.readVarLong(), i.readVarInt())));
    }

    /** Both reconfiguration protocols; a tree travels as its YAML plus its node ids and states ({@link TreeWire}). */
    private static void registerReconfig(CodecRegistrar r) {
        r.add("reconfig.Cleanup", Reconfig.Cleanup.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            o.writeVarLong(x.forceAbortMicros());
        }, i -> new Reconfig.Cleanup(i.readVarLong(), i.readVarLong())));
        r.add("reconfig.Drained", Reconfig.Drained.class, Codec.of((x, o) -> o.writeVarLong(x.epoch()),
                i -> new Reconfig.Drained(i.readVarLong())));
        r.add("reconfig.DrainedQuery", Reconfig.DrainedQuery.class, Codec.of((x, o) -> o.writeVarLong(x.epoch()),
                i -> new Reconfig.DrainedQuery(i.readVarLong())));
        r.add("reconfig.CleanupDone", Reconfig.CleanupDone.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            o.writeVarInt(x.forceAborted());
        }, i -> new Reconfig.CleanupDone(i.readVarLong(), i.readVarInt())));
        r.add("reconfig.Prepare", Reconfig.Prepare.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            TreeWire.write(o, x.tree());
        }, i -> new Reconfig.Prepare(i.readVarLong(), TreeWire.read(i))));
        r.add("reconfig.PrepareDone", Reconfig.PrepareDone.class, Codec.of((x, o) -> o.writeVarLong(x.epoch()),
                i -> new Reconfig.PrepareDone(i.readVarLong())));
        r.add("reconfig.Apply", Reconfig.Apply.class, Codec.of((x, o) -> o.writeVarLong(x.epoch()),
                i -> new Reconfig.Apply(i.readVarLong())));
        r.add("reconfig.UpdatePrepare", Reconfig.UpdatePrepare.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            TreeWire.write(o, x.tree());
        }, i -> new Reconfig.UpdatePrepare(i.readVarLong(), TreeWire.read(i))));
        r.add("reconfig.UpdateApply", Reconfig.UpdateApply.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            TreeWire.write(o, x.tree());
        }, i -> new Reconfig.UpdateApply(i.readVarLong(), TreeWire.read(i))));
        r.add("reconfig.Applied", Reconfig.Applied.class, Codec.of((x, o) -> o.writeVarLong(x.epoch()),
                i -> new Reconfig.Applied(i.readVarLong())));
        r.add("reconfig.Retire", Reconfig.Retire.class, Codec.of((x, o) -> {
            o.writeVarLong(x.epoch());
            TreeWire.write(o, x.tree());
            o.writeVarInt(x.subtree());
        }, i -> new Reconfig.Retire(i.readVarLong(), TreeWire.read(i), i.readVarInt())));
        r.add("reconfig.Retired", Reconfig.Retired.class, Codec.of((x, o) -> o.writeVarLong(x.epoch()),
                i -> new Reconfig.Retired(i.readVarLong())));
    }
}
