package org.tebaldi.bench.process;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.server.node.Partitioner;
import org.tebaldi.server.process.ControlNode;
import org.tebaldi.core.runtime.NodeId;

/**
 * Loads a workload's initial data into the data-server processes over the network: rows are routed by the
 * partitioner (replicated tables to every server) and sent in batches of {@value #BATCH} rows, with at most
 * {@value #IN_FLIGHT} unacknowledged batches per server (flow control: the runner never floods a server's queue).
 * Progress is the workload's own ({@code Progress}). Used on the runner's thread only.
 */
final class RemoteLoader implements DataLoader {
    static final int BATCH = 5_000;
    static final int IN_FLIGHT = 4;
    private static final long ACK_TIMEOUT_SECONDS = 120;

    private final Catalog catalog;
    private final Partitioner partitioner;
    private final ControlNode control;
    private final List<List<Key>> keys = new ArrayList<>();
    private final List<List<Row>> rows = new ArrayList<>();
    private final List<ArrayDeque<CompletableFuture<String>>> acks = new ArrayList<>();
    private long loaded;
    private RunFailedException failure;

    RemoteLoader(Catalog catalog, Partitioner partitioner, int dataServers, ControlNode control) {
        this.catalog = catalog;
        this.partitioner = partitioner;
        this.control = control;
        for (int i = 0; i < dataServers; i++) {
            keys.add(new ArrayList<>(BATCH));
            rows.add(new ArrayList<>(BATCH));
            acks.add(new ArrayDeque<>());
        }
    }

    @Override
    public void expect(String table, long count) {
        catalog.table(table);
    }

    @Override
    public void load(Key key, Row row) {
        if (failure != null) {
            return;
        }
        if (catalog.table(key.table()).replicated()) {
            for (int d = 0; d < keys.size(); d++) {
                add(d, key, row);
            }
        } else {
            add(partitioner.partition(key), key, row);
        }
        loaded++;
    }

    private void add(int ds, Key key, Row row) {
        keys.get(ds).add(key);
        rows.get(ds).add(row);
        if (keys.get(ds).size() >= BATCH) {
            send(ds);
        }
    }

    private void send(int ds) {
        ArrayDeque<CompletableFuture<String>> q = acks.get(ds);
        while (q.size() >= IN_FLIGHT && failure == null) {
            await(ds, q.poll());
        }
        q.add(control.load(NodeId.ds(ds), keys.get(ds).toArray(new Key[0]), rows.get(ds).toArray(new Row[0])));
        keys.get(ds).clear();
        rows.get(ds).clear();
    }

    private void await(int ds, CompletableFuture<String> ack) {
        try {
            String err = ack.get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (err != null) {
                failure = new RunFailedException("loading ds" + ds + " failed: " + err, null);
            }
        } catch (ExecutionException e) {
            failure = new RunFailedException("loading ds" + ds + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            failure = new RunFailedException("ds" + ds + " did not acknowledge a batch of rows within "
                    + ACK_TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new RunFailedException("interrupted while loading", e);
        }
    }

    /**
     * Sends what is buffered and waits for every acknowledgement.
     *
     * @throws RunFailedException if a server refused or did not acknowledge a batch
     */
    void finish() throws RunFailedException {
        for (int d = 0; d < keys.size() && failure == null; d++) {
            if (!keys.get(d).isEmpty()) {
                send(d);
            }
        }
        for (int d = 0; d < acks.size(); d++) {
            while (!acks.get(d).isEmpty() && failure == null) {
                await(d, acks.get(d).poll());
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Rows loaded (a replicated row counts once). */
    long rows() {
        return loaded;
    }
}
