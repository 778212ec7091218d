package org.tebaldi.bench.run;

import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * What primary-backup replication ({@code cluster.replication}; docs/mechanisms.md "Replication") measured over a
 * whole run (loading and warm-up included), summed over the data servers: log records shipped to the backups (each
 * to every live backup), writes whose completion waited for the backups' acknowledgements, unacknowledged writes
 * shipped again, backups promoted, and the inner-host votes among the waited writes (Chiller's inner region, whose
 * vote waits for the backups in both modes: Zamanian et al. SIGMOD 2020 §5).
 */
public record ReplicationStats(long shippedRecords, long waitedWrites, long resent, int promotions,
                               long innerHostWaits) {
    /** The stats of a stopped cluster; null without replication. */
    public static ReplicationStats of(Cluster cluster) {
        if (!cluster.config().replication().enabled()) {
            return null;
        }
        long shipped = 0;
        long waited = 0;
        long resent = 0;
        long inner = 0;
        for (DataServer d : cluster.dataServers()) {
            if (d.replicatedLog() != null) {
                shipped += d.replicatedLog().shippedRecords();
                waited += d.replicatedLog().waitedWrites();
                resent += d.replicatedLog().resent();
                inner += d.replicatedLog().innerHostWaits();
            }
        }
        return new ReplicationStats(shipped, waited, resent, cluster.promotions(), inner);
    }
}
