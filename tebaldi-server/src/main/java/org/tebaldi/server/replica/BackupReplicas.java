package org.tebaldi.server.replica;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.durability.LogStore;

/**
 * The backups a data server keeps of other partitions (docs/mechanisms.md "Replication"): per partition, a copy of
 * its primary's log in a store of its own, written in the primary's order ({@link ReplicaMessages.Ship} numbers;
 * writes that arrive early wait for the missing ones) and acknowledged when asked — on receipt, once queued to the
 * replica's store (the last write of the initial load once flushed). A replica holds exactly what the
 * primary's log holds — the data rows, the prepared-write (precommit) records with their operation logs, commit and
 * abort records and the persisted-epoch marks — so a promoted backup restarts the partition by the data servers'
 * restart-from-log path; recovery keeps, per key, the version with the largest order key (the Thomas write rule on
 * TIDs), whatever order the writes arrived in. When the primary's {@code NodeDown} arrives the replica stops taking
 * writes and is closed (on a thread of its own: closing a RocksDB store waits for its writer), to be opened by the
 * promoted data server ({@link #handOver}). Runs on the data server's thread.
 */
public final class BackupReplicas {
    private static final Logger LOG = LoggerFactory.getLogger(BackupReplicas.class);

    private static final class Replica {
        final LogStore store;
        final TreeMap<Long, ReplicaMessages.Ship> early = new TreeMap<>();
        long next = 1;
        boolean closed;
        boolean handedOver;

        Replica(LogStore store) {
            this.store = store;
        }
    }

    private final int host;
    private final ReplicationOptions.Stores stores;
    private final Catalog catalog;
    private final Executor owner;
    private final BiConsumer<NodeId, Object> send;
    private final Map<Integer, Replica> replicas = new HashMap<>();
    private volatile long appliedRecords;
    /** Reads from the nearest replica: where the initial load's rows go too (null: nowhere). */
    private BiConsumer<Integer, java.util.List<org.tebaldi.server.durability.LogRecord.Data>> loadRows;

    /**
     * @param host  this data server's index
     * @param owner runs a store callback on this data server's thread
     * @param send  sends a message from this data server
     */
    public BackupReplicas(int host, ReplicationOptions.Stores stores, Catalog catalog, Executor owner,
                          BiConsumer<NodeId, Object> send) {
        this.host = host;
        this.stores = stores;
        this.catalog = catalog;
        this.owner = owner;
        this.send = send;
    }

    /** A write from partition {@code s.partition()}'s primary (ignored once that primary failed). */
    public void onShip(ReplicaMessages.Ship s) {
        Replica r = replicas.get(s.partition());
        if (r == null) {
            r = new Replica(stores.open(s.partition(), host, catalog, owner));
            replicas.put(s.partition(), r);
        }
        if (r.closed) {
            return;
        }
        if (s.seq() < r.next) { // shipped again: its acknowledgement may have been lost
            if (s.ack()) {
                send.accept(NodeId.ds(s.partition()), new ReplicaMessages.Ack(s.partition(), r.next - 1));
            }
            return;
        }
        r.early.put(s.seq(), s);
        while (!r.early.isEmpty() && r.early.firstKey() == r.next) {
            ReplicaMessages.Ship w = r.early.pollFirstEntry().getValue();
            r.next++;
            appliedRecords += w.records().size();
            Runnable ack = w.ack() ? () -> send.accept(NodeId.ds(w.partition()),
                    new ReplicaMessages.Ack(w.partition(), w.seq())) : null;
            if (dataRows(w)) { // the primary's initial load: in bulk; its last write waits for the flush
                r.store.loadEncoded(w.records());
                if (loadRows != null) {
                    org.tebaldi.server.durability.LogFormat f = new org.tebaldi.server.durability.LogFormat(catalog);
                    java.util.List<org.tebaldi.server.durability.LogRecord.Data> rows =
                            new java.util.ArrayList<>(w.records().size());
                    for (org.tebaldi.server.durability.LogRecord x : w.records()) {
                        org.tebaldi.server.durability.LogRecord.Encoded e =
                                (org.tebaldi.server.durability.LogRecord.Encoded) x;
                        rows.add(f.decodeData(e.key(), e.value()));
                    }
                    loadRows.accept(w.partition(), rows);
                }
                if (ack != null) {
                    r.store.write(java.util.List.of(), true, ack);
                }
            } else {
                // acknowledged on receipt: the write is in this server's memory and queued to its store, which
                // survives the primary's failure (COCO's backups acknowledge from memory too)
                r.store.write(w.records(), false, null);
                if (ack != null) {
                    ack.run();
                }
            }
        }
    }

    private static boolean dataRows(ReplicaMessages.Ship w) {
        if (w.records().isEmpty()) {
            return false;
        }
        for (org.tebaldi.server.durability.LogRecord r : w.records()) {
            if (!(r instanceof org.tebaldi.server.durability.LogRecord.Encoded e)
                    || e.cf() != org.tebaldi.server.durability.LogFormat.Cf.DATA) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads from the nearest replica: the rows of each primary's initial load also go to {@code rows} (partition,
     * decoded rows), to seed the backup's applied view ({@link ReplicaViews#seed}). Call before the node starts.
     */
    public void onLoadRows(BiConsumer<Integer, java.util.List<org.tebaldi.server.durability.LogRecord.Data>> rows) {
        this.loadRows = rows;
    }

    /**
     * Data server {@code ds} failed: the replica of its partition takes no more writes (those numbered after a gap
     * are dropped: the primary never acknowledged anything that needed them) and is closed, so that the promoted
     * data server can open it.
     */
    public void primaryDown(int ds) {
        Replica r = replicas.get(ds);
        if (r != null && !r.closed) {
            r.closed = true;
            r.early.clear();
            LOG.info("ds{}: primary ds{} failed; its replica here (through write {}) is ready for promotion", host,
                    ds, r.next - 1);
            LogStore st = r.store;
            Thread t = new Thread(st::close, "tebaldi-close-replica-ds" + ds); // a RocksDB close waits for its writer
            t.setDaemon(true);
            t.start();
        }
    }

    /**
     * Whether this server keeps a replica of {@code partition} that was never handed over (a promoted replica is
     * the partition's store from then on, and this server keeps no other copy of it).
     */
    public boolean keeps(int partition) {
        Replica r = replicas.get(partition);
        return r != null && !r.handedOver;
    }

    /**
     * The store of {@code partition}'s replica, for the promoted data server (simulated runtime: memory stores are
     * reopened by the same object), handed over once; null if none is kept here or it was handed over already.
     */
    public LogStore handOver(int partition) {
        Replica r = replicas.get(partition);
        if (r == null || r.handedOver) {
            return null;
        }
        r.handedOver = true;
        return r.store;
    }

    /** Records applied to replicas here so far. */
    public long appliedRecords() {
        return appliedRecords;
    }

    /** Closes every replica still open (the node stopped). */
    public void close() {
        for (Replica r : replicas.values()) {
            if (!r.closed) {
                r.closed = true;
                r.store.close();
            }
        }
    }
}
