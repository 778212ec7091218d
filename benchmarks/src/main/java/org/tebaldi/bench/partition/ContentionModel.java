package org.tebaldi.bench.partition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Key;

/**
 * The contention likelihood (Zamanian et al., SIGMOD 2020, §4.1): with reads and writes of a record arriving
 * as Poisson processes of means λ_r and λ_w per lock window, the probability of a conflicting access is
 * P_c = P(X_w &gt; 1)P(X_r = 0) + P(X_w &gt; 0)P(X_r &gt; 0) = 1 − e^{−λ_w} − λ_w e^{−λ_w} e^{−λ_r}. The rates are
 * the sampled access counts scaled by the sampling rate, per second of the sampling window, times the lock window.
 */
public final class ContentionModel {
    private ContentionModel() {
    }

    /** P_c for mean writes {@code lw} and reads {@code lr} per lock window (both &ge; 0). */
    public static double likelihood(double lw, double lr) {
        return 1 - Math.exp(-lw) - lw * Math.exp(-lw) * Math.exp(-lr);
    }

    /** Per record: {reads, writes} counted over the sampled transactions (each transaction once per record). */
    public static Map<Key, long[]> counts(List<ContentionStats.Txn> txns) {
        Map<Key, long[]> c = new HashMap<>();
        for (ContentionStats.Txn t : txns) {
            t.accesses().forEach((k, w) -> c.computeIfAbsent(k, x -> new long[2])[w ? 1 : 0]++);
        }
        return c;
    }

    /**
     * P_c of every sampled record.
     *
     * @param rate         the sampling rate, (0, 1]
     * @param windowMicros the sampling window, µs (&gt; 0)
     * @param lockMicros   the lock window (average lock holding time), µs (&gt; 0)
     */
    public static Map<Key, Double> likelihoods(Map<Key, long[]> counts, double rate, long windowMicros,
                                               long lockMicros) {
        double scale = lockMicros / (rate * windowMicros);
        Map<Key, Double> p = new HashMap<>();
        counts.forEach((k, rw) -> p.put(k, likelihood(rw[1] * scale, rw[0] * scale)));
        return p;
    }
}
