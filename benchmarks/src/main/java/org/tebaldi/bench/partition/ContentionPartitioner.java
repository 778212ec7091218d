package org.tebaldi.bench.partition;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.tebaldi.core.model.Key;
import org.tebaldi.server.node.Partitioner;
import org.tebaldi.server.node.Placement;

/**
 * Contention-aware partitioning (Zamanian et al., SIGMOD 2020, §4): contention likelihoods from the sampled
 * statistics, the star graph, METIS's min-cut with balance, and a lookup table of the hot records only (P_c at
 * least {@code hotThreshold}) over the default partitioner (§4.4).
 *
 * @param lockMicros   the lock window for the access rates, µs (&gt; 0)
 * @param hotThreshold the contention likelihood from which a record goes into the lookup table, in (0, 1]
 * @param ufactor      METIS's allowed load imbalance, per mille (30 = 3 %)
 */
public record ContentionPartitioner(long lockMicros, double hotThreshold, int ufactor) {
    /** The placement for {@code dataServers} over {@code fallback}, from {@code stats}. */
    public Placement place(ContentionStats stats, int dataServers, Partitioner fallback)
            throws IOException, InterruptedException {
        Map<Key, Double> p = ContentionModel.likelihoods(ContentionModel.counts(stats.txns()), stats.rate(),
                Math.max(1, stats.windowMicros()), lockMicros);
        StarGraph g = new StarGraph(stats.txns(), p);
        Map<Key, Integer> hot = new HashMap<>();
        int[] part = dataServers > 1 && g.records() > 0 ? Metis.partition(g, dataServers, ufactor)
                : new int[g.records() + g.transactions()];
        for (int i = 0; i < g.records(); i++) {
            if (p.get(g.record(i)) >= hotThreshold) {
                hot.put(g.record(i), part[i]);
            }
        }
        return new Placement(hot, fallback);
    }
}
