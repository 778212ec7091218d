package org.tebaldi.bench.experiment;

import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.CommitProtocol;

import org.tebaldi.server.zk.ZkConnection;

/**
 * The {@code cluster:} section of an experiment (docs/architecture.md, "Runtime").
 *
 * @param mode               {@code embedded} (one JVM, local transport), {@code processes} (one JVM per node on
 *                           loopback, Netty transport, ZooKeeper) or {@code simulated} (the deterministic simulated
 *                           runtime with a calibrated cost model, virtual time; docs/simulation.md)
 * @param transport          {@code local} (embedded) or {@code netty} (processes)
 * @param dataServers        number of data servers, at least 1 (default 1)
 * @param coordinators       number of transaction coordinators (and client endpoints), at least 1 (default 1)
 * @param networkDelayMicros emulated one-way network delay, µs (default 50, docs/experiments.md); embedded mode only
 *                           (processes use the real loopback network)
 * @param threads            executor threads, 0 = one per core (default 0); embedded mode only (in processes mode
 *                           each node runs its actors on its transport's one event-loop thread)
 * @param batching           batched execution of stored procedures: operations that do not need each other's
 *                           results go out together, one message per data server (default true)
 * @param simulation         the simulated cluster's shape and costs; null unless mode is {@code simulated}
 * @param bind               the interface every node process and the runner listen on (mode {@code processes}):
 *                           an address of this machine, {@link #LOOPBACK} by default, {@code 0.0.0.0} for all
 * @param sessionTimeoutMillis ZooKeeper session timeout of each node process, ms ({@code sessionTimeout}, default
 *                           15 s, 2 s to 10 min): how long a silent node (stopped, starved, in a GC pause) stays a
 *                           member before the cluster declares it dead; processes mode only
 * @param commit             {@code commit}: {@code 2pc} (default) or {@code epoch} (COCO's epoch-based commit,
 *                           docs/mechanisms.md "Epoch-based commit")
 * @param epochMicros        {@code epoch}: length of a commit epoch, µs (default 10 ms); only with {@code commit:
 *                           epoch}
 * @param replicas           {@code replication.factor}: copies of each partition (default 1: no replication;
 *                           docs/mechanisms.md "Replication")
 * @param replicationMode    {@code replication.mode}: {@code sync} (default) or {@code async}
 * @param replicaReads       {@code replication.reads}: {@code primary} (default) or {@code nearest} (read-only
 *                           snapshot reads at the nearest copy holding the snapshot; docs/mechanisms.md
 *                           "Replication")
 * @param placement          {@code placement}: a hot-record placement file ({@link org.tebaldi.server.node.Placement},
 *                           written by {@code tebaldi partition}; a relative path is resolved against the experiment
 *                           file's folder): its hot-record lookup table over the default partitioner; null (or
 *                           {@code placement: none}) for the default partitioner; embedded and simulated modes
 * @param autoFailover       {@code replication.failover}: {@code auto} (default: in process mode a data server whose
 *                           membership ends is replaced by its first live backup's replica, docs/mechanisms.md
 *                           "Replication") or {@code manual} (only an operator's {@code ProcessCluster.promote})
 * @param fencing            {@code replication.fencing}: {@code lease} (default, true: in process mode a data server
 *                           whose ZooKeeper session went unconfirmed for half the session timeout acknowledges nothing,
 *                           docs/reliability.md "No split brain") or {@code off}
 * @param hashPlacement      {@code placement: hash}: every table hashed on its whole key over the data servers
 *                           ({@link org.tebaldi.server.node.Partitioner#byKey}) instead of the workload's partitioner
 *                           (TPC-C: by warehouse); embedded and simulated modes
 * @param tls                {@code tls}: mutual TLS on every connection between the node processes and the runner,
 *                           with a CA and certificates generated for the run (docs/cluster.md, "Security"); processes
 *                           mode only, default false
 */
public record ClusterSpec(String mode, String transport, int dataServers, int coordinators, long networkDelayMicros,
                          int threads, boolean batching, SimulationSpec simulation, String bind,
                          long sessionTimeoutMillis, CommitProtocol commit, long epochMicros, int replicas,
                          org.tebaldi.server.replica.ReplicationOptions.Mode replicationMode,
                          org.tebaldi.server.replica.ReplicationOptions.Reads replicaReads,
                          java.nio.file.Path placement, boolean autoFailover, boolean fencing,
                          boolean hashPlacement, boolean tls) {
    /** Without TLS. */
    public ClusterSpec(String mode, String transport, int dataServers, int coordinators, long networkDelayMicros,
                       int threads, boolean batching, SimulationSpec simulation, String bind,
                       long sessionTimeoutMillis, CommitProtocol commit, long epochMicros, int replicas,
                       org.tebaldi.server.replica.ReplicationOptions.Mode replicationMode,
                       org.tebaldi.server.replica.ReplicationOptions.Reads replicaReads,
                       java.nio.file.Path placement, boolean autoFailover, boolean fencing,
                       boolean hashPlacement) {
        this(mode, transport, dataServers, coordinators, networkDelayMicros, threads, batching, simulation, bind,
                sessionTimeoutMillis, commit, epochMicros, replicas, replicationMode, replicaReads, placement,
                autoFailover, fencing, hashPlacement, false);
    }

    /** Fenced by a lease, the workload's partitioner. */
    public ClusterSpec(String mode, String transport, int dataServers, int coordinators, long networkDelayMicros,
                       int threads, boolean batching, SimulationSpec simulation, String bind,
                       long sessionTimeoutMillis, CommitProtocol commit, long epochMicros, int replicas,
                       org.tebaldi.server.replica.ReplicationOptions.Mode replicationMode,
                       org.tebaldi.server.replica.ReplicationOptions.Reads replicaReads,
                       java.nio.file.Path placement, boolean autoFailover) {
        this(mode, transport, dataServers, coordinators, networkDelayMicros, threads, batching, simulation, bind,
                sessionTimeoutMillis, commit, epochMicros, replicas, replicationMode, replicaReads, placement,
                autoFailover, true, false);
    }

    /** With automatic failover ({@code replication.failover: auto}). */
    public ClusterSpec(String mode, String transport, int dataServers, int coordinators, long networkDelayMicros,
                       int threads, boolean batching, SimulationSpec simulation, String bind,
                       long sessionTimeoutMillis, CommitProtocol commit, long epochMicros, int replicas,
                       org.tebaldi.server.replica.ReplicationOptions.Mode replicationMode,
                       org.tebaldi.server.replica.ReplicationOptions.Reads replicaReads,
                       java.nio.file.Path placement) {
        this(mode, transport, dataServers, coordinators, networkDelayMicros, threads, batching, simulation, bind,
                sessionTimeoutMillis, commit, epochMicros, replicas, replicationMode, replicaReads, placement, true);
    }

    /** The replication settings (replicas in RocksDB under the durability directory). */
    public org.tebaldi.server.replica.ReplicationOptions replication() {
        return replicas <= 1 ? org.tebaldi.server.replica.ReplicationOptions.OFF
                : new org.tebaldi.server.replica.ReplicationOptions(replicas, replicationMode, null, replicaReads);
    }

    /** The default {@code bind}: loopback only. */
    public static final String LOOPBACK = "127.0.0.1";

    /** A real (embedded or processes) cluster listening on loopback. */
    public ClusterSpec(String mode, String transport, int dataServers, int coordinators, long networkDelayMicros,
                       int threads, boolean batching) {
        this(mode, transport, dataServers, coordinators, networkDelayMicros, threads, batching, null, LOOPBACK);
    }

    /** With the default session timeout ({@link ZkConnection#DEFAULT_SESSION_MILLIS}). */
    public ClusterSpec(String mode, String transport, int dataServers, int coordinators, long networkDelayMicros,
                       int threads, boolean batching, SimulationSpec simulation, String bind) {
        this(mode, transport, dataServers, coordinators, networkDelayMicros, threads, batching, simulation, bind,
                ZkConnection.DEFAULT_SESSION_MILLIS);
    }

    /** With two-phase commit (the default {@code commit: 2pc}). */
    public ClusterSpec(String mode, String transport, int dataServers, int coordinators, long networkDelayMicros,
                       int threads, boolean batching, SimulationSpec simulation, String bind,
                       long sessionTimeoutMillis) {
        this(mode, transport, dataServers, coordinators, networkDelayMicros, threads, batching, simulation, bind,
                sessionTimeoutMillis, CommitProtocol.TWO_PC, ClusterConfig.DEFAULT_EPOCH_MICROS);
    }

    /** Without replication and without a placement (the default partitioner). */
    public ClusterSpec(String mode, String transport, int dataServers, int coordinators, long networkDelayMicros,
                       int threads, boolean batching, SimulationSpec simulation, String bind,
                       long sessionTimeoutMillis, CommitProtocol commit, long epochMicros) {
        this(mode, transport, dataServers, coordinators, networkDelayMicros, threads, batching, simulation, bind,
                sessionTimeoutMillis, commit, epochMicros, 1, org.tebaldi.server.replica.ReplicationOptions.Mode.SYNC,
                org.tebaldi.server.replica.ReplicationOptions.Reads.PRIMARY, null);
    }

    /**
     * The partitioner every node of this cluster uses: hash placement's if {@link #hashPlacement}, the placement's
     * (loaded from its file) if there is one, else {@code fallback} (the workload's).
     *
     * @throws IllegalArgumentException for a bad placement file (file, place, fix)
     */
    public org.tebaldi.server.node.Partitioner partitioner(org.tebaldi.core.model.Catalog catalog,
                                                           org.tebaldi.server.node.Partitioner fallback) {
        if (hashPlacement) {
            return org.tebaldi.server.node.Partitioner.byKey(catalog, dataServers);
        }
        return placement == null ? fallback
                : org.tebaldi.server.node.Placement.load(placement, catalog, dataServers, fallback);
    }

    /** Whether the run is simulated (virtual time). */
    public boolean simulated() {
        return simulation != null;
    }
}
