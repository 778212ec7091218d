package org.tebaldi.bench.workload;

import org.tebaldi.core.db.Database;
import org.tebaldi.server.node.Partitioner;

/**
 * A benchmark workload (docs/architecture.md, "Modules"; docs/experiments.md, "Workloads"): its database (tables and transaction types), its initial
 * data, the transactions its closed-loop clients issue, and the consistency conditions its final state must meet.
 * Created from an experiment's {@code workload:} section by a {@link WorkloadFactory}; one instance serves one run.
 *
 * <p>Threading: {@link #load} and {@link #newClient} are called from the runner's thread; each
 * {@link ClientSource} is then used by one logical client at a time (possibly from different threads in turn);
 * {@link #check} is called once after the cluster stopped.
 */
public interface Workload {
    /** The workload's registered name, e.g. {@code tpcc} or {@code bank}. */
    String name();

    /** The database definition shared by every node; the same instance on every call. */
    Database database();

    /**
     * How keys map to data servers.
     *
     * @param dataServers number of data servers (at least 1)
     * @return a partitioner, or null for the default (each table's {@code partitionPart} modulo the number of
     *         servers, else a hash of the key; {@link Partitioner#byTable})
     */
    default Partitioner partitioner(int dataServers) {
        return null;
    }

    /**
     * Writes the initial data: first {@link DataLoader#expect} for every table (sizes the stores and the progress
     * total), then {@link DataLoader#load} for every row, in any order. Reports what it is doing to {@code progress}.
     */
    void load(DataLoader loader, Progress progress);

    /**
     * A new closed-loop client.
     *
     * @param index the logical client's index, {@code 0 .. clients-1}
     * @param seed  the client's random seed, derived from the experiment's {@code seed} and {@code index}
     */
    ClientSource newClient(int index, long seed);

    /**
     * Checks the workload's consistency conditions on the final state (e.g. TPC-C §3.3.2 conditions 1–4, the bank's
     * total balance).
     *
     * @param snapshot the latest committed row of every key
     */
    ConsistencyResult check(DatabaseSnapshot snapshot);

    /**
     * The workload's shifts during the run ({@code workload.shift}, docs/experiments.md "Workload shifts"); the
     * driver sets their clock before the clients start. {@link Shifts#NONE} for a workload that does not shift.
     */
    default Shifts shifts() {
        return Shifts.NONE;
    }
}
