package org.tebaldi.server.node;

import java.util.Objects;
import java.util.function.Function;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;

/**
 * What every TC and DS of a cluster shares: the database definition, the active CC tree, how many coordinators
 * and data servers there are, the partitioner, and whether to record the history for verification.
 */
public final class ClusterConfig {
    private final Database db;
    private final CcTree tree;
    private final int coordinators;
    private final int dataServers;
    private final Partitioner partitioner;
    private final boolean recordHistory;
    private final CcNode[] leafOfType;
    private Function<String, Mechanism> mechanisms = Mechanisms::get;
    private long waitTimeoutMicros = DEFAULT_WAIT_TIMEOUT_MICROS;
    private long profileFlushMicros;
    private boolean opBatching = true;
    private long gcEpochMicros = DEFAULT_GC_EPOCH_MICROS;
    private long txnTimeoutMicros;
    private org.tebaldi.server.durability.DurabilityOptions durability = org.tebaldi.server.durability.DurabilityOptions.OFF;
    private org.tebaldi.server.replica.ReplicationOptions replication =
            org.tebaldi.server.replica.ReplicationOptions.OFF;
    private CommitProtocol commit = CommitProtocol.TWO_PC;
    private long epochMicros = DEFAULT_EPOCH_MICROS;
    private AccessSampler accessSampler;
    private org.tebaldi.server.storage.StorageOptions storage = org.tebaldi.server.storage.StorageOptions.DEFAULT;
    private Lease lease;

    /** Default length of a commit epoch under {@link CommitProtocol#EPOCH}, µs (COCO §4: 10 ms). */
    public static final long DEFAULT_EPOCH_MICROS = 10_000;

    /** Default length of a garbage-collection epoch, µs (dissertation §4.5.3). */
    public static final long DEFAULT_GC_EPOCH_MICROS = 50_000;

    /** Default cross-mechanism wait timeout, µs ({@link org.tebaldi.core.cc.CcServices#waitTimeoutMicros()}). */
    public static final long DEFAULT_WAIT_TIMEOUT_MICROS = 200_000;

    /**
     * @throws IllegalArgumentException if a transaction type has no leaf in the tree or counts are &lt; 1
     */
    public ClusterConfig(Database db, CcTree tree, int coordinators, int dataServers, Partitioner partitioner,
                         boolean recordHistory) {
        if (coordinators < 1 || dataServers < 1) {
            throw new IllegalArgumentException("need at least one coordinator and one data server");
        }
        this.db = Objects.requireNonNull(db);
        this.tree = Objects.requireNonNull(tree);
        this.coordinators = coordinators;
        this.dataServers = dataServers;
        this.partitioner = partitioner != null ? partitioner : Partitioner.byTable(db.catalog(), dataServers);
        this.recordHistory = recordHistory;
        this.leafOfType = new CcNode[db.types().size()];
        for (TxnType t : db.types()) {
            CcNode leaf = tree.leafFor(t.name());
            if (leaf == null) {
                throw new IllegalArgumentException("transaction type '" + t.name() + "' is in no leaf of tree "
                        + tree.describe());
            }
            leafOfType[t.id()] = leaf;
        }
    }

    public Database db() {
        return db;
    }

    public CcTree tree() {
        return tree;
    }

    public int coordinators() {
        return coordinators;
    }

    public int dataServers() {
        return dataServers;
    }

    public Partitioner partitioner() {
        return partitioner;
    }

    /**
     * The same cluster with another partitioner (e.g. a hot-record {@link Placement} over the default), keeping every
     * other setting; coordinators and data servers built from it agree on every key's server and hotness.
     */
    public ClusterConfig withPartitioner(Partitioner p) {
        return copy(tree, p);
    }

    /** A copy with {@code t} and {@code p}, every other setting kept (the one place that lists them). */
    private ClusterConfig copy(CcTree t, Partitioner p) {
        ClusterConfig c = new ClusterConfig(db, t, coordinators, dataServers, p, recordHistory);
        c.mechanisms = mechanisms;
        c.waitTimeoutMicros = waitTimeoutMicros;
        c.profileFlushMicros = profileFlushMicros;
        c.opBatching = opBatching;
        c.gcEpochMicros = gcEpochMicros;
        c.durability = durability;
        c.replication = replication;
        c.txnTimeoutMicros = txnTimeoutMicros;
        c.commit = commit;
        c.epochMicros = epochMicros;
        c.accessSampler = accessSampler;
        c.storage = storage;
        c.lease = lease;
        return c;
    }

    /** Data servers report the accesses of the transactions {@code s} samples (contention statistics); null: off. */
    public ClusterConfig withAccessSampler(AccessSampler s) {
        this.accessSampler = s;
        return this;
    }

    /** The access sampler, or null (off). */
    public AccessSampler accessSampler() {
        return accessSampler;
    }

    public boolean recordHistory() {
        return recordHistory;
    }

    /**
     * The same cluster with another CC tree (reconfiguration), keeping every other setting.
     *
     * @throws IllegalArgumentException if a transaction type has no leaf in {@code tree}
     */
    public ClusterConfig withTree(CcTree tree) {
        return copy(tree, partitioner);
    }

    /** How mechanism names resolve (default: the class-path registry); tests may plug in their own. */
    public ClusterConfig withMechanisms(Function<String, Mechanism> lookup) {
        this.mechanisms = Objects.requireNonNull(lookup);
        return this;
    }

    /**
     * Turns on the timeouts that end transactions stuck by a lost message or a failed service (docs/architecture.md,
     * "Failures"): a coordinator aborts (retryably) a live transaction begun more than {@code micros} µs ago whose
     * commit it has not decided, and keeps each commit decision for {@code 20 × micros} to answer outcome queries;
     * a data server asks a transaction's coordinator for its outcome ({@code OutcomeQuery}) when it has heard
     * nothing about it for {@code micros} µs — the termination protocol of two-phase commit, which ends a prepared
     * transaction whose commit or abort message was lost. 0 (the default) turns them off.
     *
     * @throws IllegalArgumentException if negative
     */
    public ClusterConfig withTxnTimeout(long micros) {
        if (micros < 0) {
            throw new IllegalArgumentException("transaction timeout must not be negative, got " + micros);
        }
        this.txnTimeoutMicros = micros;
        return this;
    }

    /** The transaction timeout, µs (0: off); see {@link #withTxnTimeout}. */
    public long txnTimeoutMicros() {
        return txnTimeoutMicros;
    }

    /** Sets the cross-mechanism wait timeout, µs. @throws IllegalArgumentException if not positive */
    public ClusterConfig withWaitTimeout(long micros) {
        if (micros <= 0) {
            throw new IllegalArgumentException("wait timeout must be positive, got " + micros);
        }
        this.waitTimeoutMicros = micros;
        return this;
    }

    /**
     * Turns the profiler on: TCs and DSs send their blocking events to the monitor node ({@code Role.MONITOR}),
     * batched, at least every {@code flushMicros} µs; 0 turns it off (the default: no cost on the hot path).
     */
    public ClusterConfig withProfiling(long flushMicros) {
        if (flushMicros < 0) {
            throw new IllegalArgumentException("flush interval must be >= 0, got " + flushMicros);
        }
        this.profileFlushMicros = flushMicros;
        return this;
    }

    /**
     * Batched execution of stored procedures (on by default): a coordinator sends the operations of a procedure
     * that do not need each other's results together, one message per data server, instead of one round trip per
     * operation ({@link org.tebaldi.core.proc.ProcRun#resume}).
     */
    public ClusterConfig withOpBatching(boolean on) {
        this.opBatching = on;
        return this;
    }

    /** Whether stored procedures run batched. */
    public boolean opBatching() {
        return opBatching;
    }

    /**
     * Sets the length of a garbage-collection epoch (dissertation §4.5.3), µs; 0 turns version garbage collection
     * off (chains then grow for the length of a run).
     *
     * @throws IllegalArgumentException if negative
     */
    public ClusterConfig withGcEpoch(long micros) {
        if (micros < 0) {
            throw new IllegalArgumentException("GC epoch must be >= 0, got " + micros);
        }
        this.gcEpochMicros = micros;
        return this;
    }

    /** GC epoch length, µs; 0 when version garbage collection is off. */
    public long gcEpochMicros() {
        return gcEpochMicros;
    }

    /**
     * How the data servers keep their rows (docs/performance.md, "Rows off the heap");
     * {@link org.tebaldi.server.storage.StorageOptions#DEFAULT} (off-heap, no memory bound) by default.
     */
    public ClusterConfig withStorage(org.tebaldi.server.storage.StorageOptions s) {
        this.storage = Objects.requireNonNull(s);
        return this;
    }

    /** How the data servers keep their rows. */
    public org.tebaldi.server.storage.StorageOptions storage() {
        return storage;
    }

    /** Turns durability (dissertation §4.5.4) on or off; {@link org.tebaldi.server.durability.DurabilityOptions#OFF} by default. */
    public ClusterConfig withDurability(org.tebaldi.server.durability.DurabilityOptions d) {
        this.durability = Objects.requireNonNull(d);
        return this;
    }

    /**
     * Turns primary-backup replication of the data servers' logs on (docs/mechanisms.md "Replication"); off (factor
     * 1) by default.
     *
     * @throws IllegalArgumentException if the factor exceeds the data servers, or replication is on without
     *                                  durability (the log is what is replicated)
     */
    public ClusterConfig withReplication(org.tebaldi.server.replica.ReplicationOptions r) {
        Objects.requireNonNull(r);
        if (r.factor() > dataServers) {
            throw new IllegalArgumentException("replication factor " + r.factor() + " needs at least " + r.factor()
                    + " data servers, there are " + dataServers);
        }
        if (r.enabled() && !durability.enabled()) {
            throw new IllegalArgumentException("replication ships the data servers' logs: it needs durability on"
                    + " (set durability.enabled: true)");
        }
        this.replication = r;
        return this;
    }

    /** The replication settings. */
    public org.tebaldi.server.replica.ReplicationOptions replication() {
        return replication;
    }

    /**
     * Fences data servers by {@code l} ({@code replication.fencing: lease}, docs/reliability.md "No split brain"):
     * a data server acknowledges nothing while it does not hold it; null (the default, and every runtime without a
     * membership service): no fencing.
     */
    public ClusterConfig withLease(Lease l) {
        this.lease = l;
        return this;
    }

    /** The lease data servers are fenced by, or null. */
    public Lease lease() {
        return lease;
    }

    /**
     * Chooses the commit protocol: {@link CommitProtocol#TWO_PC} (the default: each transaction's outcome is released
     * as soon as it is decided) or {@link CommitProtocol#EPOCH} (COCO's epoch-based commit: decided transactions are
     * held, prepared, until the epoch coordinator commits their epoch, every {@code epochMicros} µs).
     *
     * @throws IllegalArgumentException if {@code epochMicros} is not positive
     */
    public ClusterConfig withCommit(CommitProtocol protocol, long epochMicros) {
        if (epochMicros <= 0) {
            throw new IllegalArgumentException("commit epoch length must be positive, got " + epochMicros + " µs");
        }
        this.commit = Objects.requireNonNull(protocol);
        this.epochMicros = epochMicros;
        return this;
    }

    /** The commit protocol (default {@link CommitProtocol#TWO_PC}). */
    public CommitProtocol commitProtocol() {
        return commit;
    }

    /** Length of a commit epoch, µs (used under {@link CommitProtocol#EPOCH} only; default 10 ms). */
    public long epochMicros() {
        return epochMicros;
    }

    /** The durability settings. */
    public org.tebaldi.server.durability.DurabilityOptions durability() {
        return durability;
    }

    /** Profiler flush interval, µs; 0 when profiling is off. */
    public long profileFlushMicros() {
        return profileFlushMicros;
    }

    /** The cross-mechanism wait timeout, µs. */
    public long waitTimeoutMicros() {
        return waitTimeoutMicros;
    }

    /** The mechanism of a tree node. */
    public Mechanism mechanism(CcNode node) {
        return mechanisms.apply(node.mechanism());
    }

    /** The leaf group of a transaction type. */
    public CcNode leafOf(int typeId) {
        return leafOfType[typeId];
    }
}
