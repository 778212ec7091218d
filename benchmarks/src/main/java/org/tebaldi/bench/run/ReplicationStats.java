package org.tebaldi.bench.run;

import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * What primary-backup replication ({@code cluster.replication}; docs/mechanisms.md "Replication") measured over a
 * whole run (loading and warm-up included), summed over the data servers: log records shipped to the backups (each
 * to every live backup), writes whose completion waited for the backups' acknowledgements, unacknowledged writes
 * shipped again, and backups promoted; with {@code reads: nearest}, the reads backups served for the coordinators,
 * those a backup refused and the primary then served, and the mean replica lag, ms (commit at the primary to
 * application in a backup's view, per applied batch of writes; NaN with none).
 */
public record ReplicationStats(long shippedRecords, long waitedWrites, long resent, int promotions, long backupReads,
                               long backupFallbacks, double replicaLagMs) {
    /** The stats of a stopped cluster; null without replication. */
    public static ReplicationStats of(Cluster cluster) {
        if (!cluster.config().replication().enabled()) {
            return null;
        }
        long shipped = 0;
        long waited = 0;
        long resent = 0;
        for (DataServer d : cluster.dataServers()) {
            if (d.replicatedLog() != null) {
                shipped += d.replicatedLog().shippedRecords();
                waited += d.replicatedLog().waitedWrites();
                resent += d.replicatedLog().resent();
            }
        }
        long lagMicros = 0;
        long lagSamples = 0;
        for (DataServer d : cluster.dataServers()) {
            if (d.replicaViews() != null) {
                long[] l = d.replicaViews().lag();
                lagMicros += l[0];
                lagSamples += l[1];
            }
        }
        long served = 0;
        long fallbacks = 0;
        for (org.tebaldi.server.tc.TransactionCoordinator tc : cluster.coordinators()) {
            long[] c = tc.replicaReadCounts();
            served += c[0];
            fallbacks += c[1];
        }
        return new ReplicationStats(shipped, waited, resent, cluster.promotions(), served, fallbacks,
                lagSamples == 0 ? Double.NaN : lagMicros / 1000.0 / lagSamples);
    }
}
