package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.msg.TxnHeader;
import org.tebaldi.server.node.PathTxn;

/** A transaction attempt at its coordinator. Owned by the TC actor. */
final class TcTxnImpl extends PathTxn implements TcTxn {
    /** HELD: decided to commit, waiting for its commit epoch (epoch-based commit, {@link TcEpochs}). */
    enum Status { STARTING, ACTIVE, VALIDATING, HELD, DONE }

    final TxnType type;
    final Inputs inputs;
    final NodeId client;
    final long reqId;
    /** Where the transaction's operations come from and where their results go (one per execution mode). */
    final OpDriver driver;
    final List<TxnDep> deps = new ArrayList<>(0);
    private final boolean[] isParticipant;
    private int[] participants = new int[0];
    /** Id of the next operation (interactive: the client numbers them; procedures: the coordinator does). */
    int nextOpId;
    /** The batch of operations in flight (passing the TC parts or awaiting replies), or null. */
    OpBatch batch;
    Status status = Status.STARTING;
    boolean commitRequested;
    int votes;
    /** Data-server requests sent and not yet answered, and when the last one was sent (µs). */
    int awaiting;
    long sentAt;
    /** When the coordinator began it, µs of its clock (the transaction timeout counts from here). */
    long begunAt;
    Map<String, Object> outputs = Map.of();
    /** Durability: the largest GCP epoch a participant voted with (the global epoch id, §4.5.4). */
    long epoch;
    /** Durability: data servers this transaction wrote at. */
    private final BitSet writers = new BitSet();
    /** Epoch-based commit: the epoch whose batch holds it once prepared (0 while in the open batch), and since when
     * it is held, µs. */
    long heldEpoch;
    long heldAt;
    /** Data server that serves this transaction's reads of replicated tables (its first participant). */
    int home = -1;
    /** Reads from the nearest replica: a backup refused one of its reads, so the rest go to the primaries. */
    boolean backupRefused;

    TcTxnImpl(TxnHeader header, TxnType type, Inputs inputs, CcNode[] path, NodeId client, long reqId,
              OpDriver driver, int dataServers) {
        super(header, path);
        this.type = type;
        this.inputs = inputs;
        this.client = client;
        this.reqId = reqId;
        this.driver = driver;
        this.isParticipant = new boolean[dataServers];
    }

    /** Durability: the transaction writes at data server {@code ds}. */
    void markWriter(int ds) {
        writers.set(ds);
    }

    /** Durability: how many data servers the transaction wrote at. */
    int writers() {
        return writers.cardinality();
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

    /** Whether the transaction is running and its commit may go ahead: no operation is in flight. */
    boolean quiet() {
        return status == Status.ACTIVE && batch == null;
    }

    @Override
    public int[] participants() {
        return participants;
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

    /** Id, type, phase, batch in flight, replies and votes awaited, participants — for diagnostics. */
    String describe() {
        return this + " " + status + (commitRequested ? " commit-requested" : "") + (batch == null ? ""
                : " batch@" + batch.firstOpId + "x" + batch.ops.size()) + " awaiting=" + awaiting + " votesLeft="
                + votes + " participants=" + java.util.Arrays.toString(participants());
    }
}
