package org.tebaldi.server.durability;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.runtime.cost.LogStoreCosts;

/**
 * The simulated cluster's data-server store (docs/simulation.md, "Durability"; {@code durability.store: simulated}):
 * the costs of {@link RocksLogStore}, not its contents. Like it, one writer thread takes the requests in order and
 * merges every write waiting in its queue into one group (group commit): the group takes the calibrated CPU —
 * {@link LogStoreCosts#groupNanos} for its records — on a core of the data server's machine, beside the data server
 * ({@link SimulatedRuntime#background}), then, if any write of it asked for a sync, the writer waits the measured
 * sync time ({@link LogStoreCosts#syncNanos}; its core is free meanwhile) before the group's callbacks go to the data
 * server in order and the next group starts. Everything else of the durability protocol — operation and precommit
 * logs, GCP epochs, durable notifications — is the real data server's and coordinator's code.
 *
 * <p>Nothing is kept: records are counted, never encoded or stored, and initial rows are dropped; a simulated
 * experiment never recovers, so {@link #read} finds an empty store. Simulation thread only.
 */
public final class SimLogStore implements LogStore {
    private record Write(int records, boolean sync, Runnable done) {
    }

    private final SimulatedRuntime sim;
    private final NodeId owner;
    private final Executor toOwner;
    private final LogStoreCosts costs;
    private final ArrayDeque<Write> queue = new ArrayDeque<>();
    private boolean writing;
    private long groups;
    private long records;
    private long syncs;

    /**
     * @param owner   the data server whose machine runs the writer
     * @param toOwner runs a callback on the data server (as {@link LogStore.Callback})
     */
    public SimLogStore(SimulatedRuntime sim, NodeId owner, Executor toOwner, LogStoreCosts costs) {
        this.sim = sim;
        this.owner = owner;
        this.toOwner = toOwner;
        this.costs = costs;
    }

    /** A factory of one store per data server on {@code sim}. */
    public static Factory factory(SimulatedRuntime sim, LogStoreCosts costs) {
        return (ds, catalog, owner) -> new SimLogStore(sim, NodeId.ds(ds), owner, costs);
    }

    @Override
    public boolean hadData() {
        return false;
    }

    @Override
    public void write(List<LogRecord> records, boolean sync, Runnable done) {
        queue.add(new Write(records.size(), sync, done));
        if (!writing) {
            nextGroup();
        }
    }

    private void nextGroup() {
        if (queue.isEmpty()) {
            writing = false;
            return;
        }
        writing = true;
        List<Write> group = new ArrayList<>(queue);
        queue.clear();
        int n = 0;
        boolean sync = false;
        for (Write w : group) {
            n += w.records();
            sync |= w.sync();
        }
        groups++;
        records += n;
        boolean synced = sync;
        if (synced) {
            syncs++;
        }
        sim.background(owner, costs.groupNanos(n), () -> {
            if (synced && costs.syncNanos() > 0) {
                sim.at(sim.nowMicros() + Math.max(1, costs.syncNanos() / 1000), () -> finish(group));
            } else {
                finish(group);
            }
        });
    }

    private void finish(List<Write> group) {
        for (Write w : group) {
            if (w.done() != null) {
                toOwner.execute(w.done());
            }
        }
        nextGroup();
    }

    @Override
    public void load(List<LogRecord.Data> rows) {
    }

    @Override
    public void loadEncoded(List<LogRecord> rows) {
    }

    @Override
    public void read(Consumer<List<LogRecord.Data>> dataChunk, Consumer<LogContents> done) {
        toOwner.execute(() -> dataChunk.accept(List.of()));
        toOwner.execute(() -> done.accept(new LogContents()));
    }

    @Override
    public void awaitWritten() {
    }

    /** Groups written so far (store writes after merging). */
    public long groups() {
        return groups;
    }

    /** Log records written so far. */
    public long records() {
        return records;
    }

    /** Synced groups so far. */
    public long syncs() {
        return syncs;
    }

    @Override
    public void close() {
    }
}
