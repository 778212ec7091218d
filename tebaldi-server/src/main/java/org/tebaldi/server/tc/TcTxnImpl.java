package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.proc.ProcRun;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.msg.TxnHeader;

/** A transaction attempt at its coordinator. Owned by the TC actor. */
final class TcTxnImpl implements TcTxn {
    enum Status { STARTING, ACTIVE, VALIDATING, DONE }

    final TxnHeader header;
    final TxnType type;
    final Inputs inputs;
    final CcNode[] path;
    final NodeId client;
    final long reqId;
    final ProcRun run;
    private final Object[] states;
    final List<TxnDep> deps = new ArrayList<>(0);
    private final boolean[] isParticipant;
    private int[] participants = new int[0];
    final Map<Integer, Op> pendingOps = new HashMap<>(2);
    int nextOpId;
    /** The stored procedure's batch in progress (batched execution), or null. */
    OpBatch batch;
    /** Interactive batches that arrived while another one ran. */
    final java.util.ArrayDeque<org.tebaldi.server.msg.TxnOps> queuedBatches = new java.util.ArrayDeque<>(0);
    Status status = Status.STARTING;
    boolean commitRequested;
    int votes;
    /** Data-server requests sent and not yet answered, and when the last one was sent (µs). */
    int awaiting;
    long sentAt;
    Map<String, Object> outputs = Map.of();
    /** Durability: the largest GCP epoch a participant voted with (the global epoch id, §4.5.4). */
    long epoch;
    /** Durability: data servers this transaction wrote at, as a bit set. */
    long writerBits;
    /** Durability: the number of data servers this transaction wrote at beyond 64 (rare). */
    java.util.BitSet moreWriters;

    /** Data server that serves this transaction's reads of replicated tables (its first participant). */
    int home = -1;

    TcTxnImpl(TxnHeader header, TxnType type, Inputs inputs, CcNode[] path, NodeId client, long reqId,
              ProcRun run, int dataServers) {
        this.header = header;
        this.type = type;
        this.inputs = inputs;
        this.path = path;
        this.client = client;
        this.reqId = reqId;
        this.run = run;
        this.states = new Object[path.length];
        this.isParticipant = new boolean[dataServers];
    }

    /** Durability: the transaction writes at data server {@code ds}. */
    void markWriter(int ds) {
        if (ds < 64) {
            writerBits |= 1L << ds;
        } else {
            if (moreWriters == null) {
                moreWriters = new java.util.BitSet();
            }
            moreWriters.set(ds);
        }
    }

    /** Durability: how many data servers the transaction wrote at. */
    int writers() {
        return Long.bitCount(writerBits) + (moreWriters == null ? 0 : moreWriters.cardinality());
    }

    void addParticipant(int ds) {
        if (!isParticipant[ds]) {
            isParticipant[ds] = true;
            int[] p = java.util.Arrays.copyOf(participants, participants.length + 1);
            p[participants.length] = ds;
            participants = p;
            if (home < 0) {
                home = ds;
            }
        }
    }

    @Override
    public int[] participants() {
        return participants;
    }

    @Override
    public long id() {
        return header.txnId();
    }

    @Override
    public int typeId() {
        return header.typeId();
    }

    @Override
    public int leaf() {
        return header.leaf();
    }

    @Override
    public long instance() {
        return header.instance();
    }

    @Override
    public long priority() {
        return header.priority();
    }

    @Override
    public Object state(int level) {
        return states[level];
    }

    @Override
    public void setState(int level, Object state) {
        states[level] = state;
    }

    @Override
    public Inputs inputs() {
        return inputs;
    }

    @Override
    public List<TxnDep> dependencies() {
        return deps;
    }

    @Override
    public String toString() {
        return TxnIds.format(id()) + "(" + type.name() + ")";
    }
}
