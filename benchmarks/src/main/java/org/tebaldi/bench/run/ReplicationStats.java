package org.tebaldi.bench.run;

import java.util.List;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * What primary-backup replication ({@code cluster.replication}; docs/mechanisms.md "Replication") measured over a
 * whole run (loading and warm-up included), summed over the data servers: log records shipped to the backups (each
 * to every live backup), writes the backups acknowledged (summed over the backups), writes whose completion waited
 * for the backups' acknowledgements, unacknowledged writes shipped again, backups promoted, and the inner-host
 * votes among the waited writes (transactions that released locks before their vote, whose vote waits for the
 * backups in both modes: Zamanian
 * et al. SIGMOD 2020 §5); with {@code reads: nearest}, the reads backups served for the coordinators, those a backup
 * refused and the primary then served, and the mean replica lag, ms (commit at the primary to application in a
 * backup's view, per applied batch of writes; NaN with none). In process mode the
 * counters are asked from the live data servers at the end of the run (a killed primary's die with it) and
 * {@code failovers} lists each promotion with its timing; the embedded and simulated runs list none there.
 */
public record ReplicationStats(long shippedRecords, long acknowledgedWrites, long waitedWrites, long resent,
                               int promotions, long innerHostWaits, long backupReads, long backupFallbacks,
                               double replicaLagMs, List<Failover> failovers) {
    /**
     * One promotion of a backup (process mode).
     *
     * @param partition  the data server whose primary died
     * @param host       the data server whose replica took over
     * @param atMillis   when the runner saw the primary's membership end, ms after the cluster started
     * @param tookMillis from then until the promoted server registered, ms
     * @param by         who decided: {@code runner} (automatic) or {@code operator}
     */
    public record Failover(int partition, int host, long atMillis, long tookMillis, String by) {
    }

    /** The stats of a stopped cluster; null without replication. */
    public static ReplicationStats of(Cluster cluster) {
        if (!cluster.config().replication().enabled()) {
            return null;
        }
        long shipped = 0;
        long acked = 0;
        long waited = 0;
        long resent = 0;
        long inner = 0;
        for (DataServer d : cluster.dataServers()) {
            var log = d.replication().map(org.tebaldi.server.ds.DsReplication::replicatedLog).orElse(null);
            if (log != null) {
                shipped += log.shippedRecords();
                acked += log.acknowledgedWrites();
                waited += log.waitedWrites();
                resent += log.resent();
                inner += log.innerHostWaits();
            }
        }
        long lagMicros = 0;
        long lagSamples = 0;
        for (DataServer d : cluster.dataServers()) {
            var views = d.replication().map(org.tebaldi.server.ds.DsReplication::replicaViews).orElse(null);
            if (views != null) {
                long[] l = views.lag();
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
        return new ReplicationStats(shipped, acked, waited, resent, cluster.promotions(), inner, served, fallbacks,
                lagSamples == 0 ? Double.NaN : lagMicros / 1000.0 / lagSamples, List.of());
    }
}
