package org.tebaldi.server.durability;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Recovery, step 2 (dissertation §4.5.4): from what every data server's log holds, which logged transactions
 * survive. Pure; run by the recovery coordinator over the data servers' summaries. A transaction is dropped when
 * <ol>
 *   <li>{@link Rule#INCOMPLETE}: fewer data servers hold its precommit log (with operation logs) than its
 *       participant count says;</li>
 *   <li>{@link Rule#LATE_EPOCH}: its global epoch id (from a commit record; without one, the largest epoch of its
 *       precommit logs) is above the last epoch persisted at every data server;</li>
 *   <li>{@link Rule#NOT_COMMITTED}: a participant logged that its coordinator aborted it, or none logged a commit
 *       (two-phase commit: a precommitted transaction can still be aborted by its coordinator's own validation).</li>
 * </ol>
 * The survivors are committed; each server keeps, per key, the latest surviving version by order key.
 */
public final class RecoveryPlan {
    private RecoveryPlan() {
    }

    /** Why a transaction was dropped. */
    public enum Rule {
        INCOMPLETE, LATE_EPOCH, NOT_COMMITTED
    }

    /**
     * What one data server's log says about one transaction.
     *
     * @param precommit      a precommit log is there
     * @param writes         it has operation logs (the server is a writing participant)
     * @param participants   the participant count of the precommit log (0 without one)
     * @param precommitEpoch its epoch (-1 without one)
     * @param commitEpoch    the global epoch of a commit record, -1 if none
     * @param aborted        an abort record is there
     */
    public record Seen(long txn, boolean precommit, boolean writes, int participants, long precommitEpoch,
                       long commitEpoch, boolean aborted) {
    }

    /**
     * The outcome.
     *
     * @param persisted the last epoch persisted at every data server (the cut)
     * @param epochBase the first epoch id after recovery, above every epoch any log mentions
     * @param keep      the surviving transactions
     * @param dropped   the others, with the first rule that dropped them
     */
    public record Decision(long persisted, long epochBase, Set<Long> keep, Map<Long, Rule> dropped) {
    }

    /**
     * @param persisted each data server's last persisted epoch
     * @param maxEpoch  the largest epoch any data server's log mentions
     * @param seen      per data server, what its log holds
     */
    public static Decision decide(long[] persisted, long maxEpoch, List<List<Seen>> seen) {
        long cut = Long.MAX_VALUE;
        for (long p : persisted) {
            cut = Math.min(cut, p);
        }
        if (persisted.length == 0) {
            cut = 0;
        }
        Map<Long, long[]> agg = new TreeMap<>(); // txn -> {writers seen, participants, epoch, commits, aborts}
        for (List<Seen> ds : seen) {
            for (Seen s : ds) {
                long[] a = agg.computeIfAbsent(s.txn(), t -> new long[]{0, 0, -1, 0, 0, -1});
                if (s.precommit() && s.writes()) {
                    a[0]++;
                }
                if (s.precommit()) {
                    a[1] = Math.max(a[1], s.participants());
                    a[2] = Math.max(a[2], s.precommitEpoch());
                }
                if (s.commitEpoch() >= 0) {
                    a[3]++;
                    a[5] = Math.max(a[5], s.commitEpoch());
                }
                if (s.aborted()) {
                    a[4]++;
                }
            }
        }
        Set<Long> keep = new HashSet<>();
        Map<Long, Rule> dropped = new LinkedHashMap<>();
        for (Map.Entry<Long, long[]> e : agg.entrySet()) {
            long[] a = e.getValue();
            long epoch = a[5] >= 0 ? a[5] : a[2];
            if (a[0] < a[1]) {
                dropped.put(e.getKey(), Rule.INCOMPLETE);
            } else if (epoch > cut) {
                dropped.put(e.getKey(), Rule.LATE_EPOCH);
            } else if (a[4] > 0 || a[3] == 0) {
                dropped.put(e.getKey(), Rule.NOT_COMMITTED);
            } else {
                keep.add(e.getKey());
            }
        }
        long base = Math.max(maxEpoch, cut) + 1;
        return new Decision(cut, base, keep, dropped);
    }

    /** Counts of dropped transactions by rule (for logs and reports). */
    public static Map<Rule, Integer> counts(Decision d) {
        Map<Rule, Integer> m = new HashMap<>();
        d.dropped().values().forEach(r -> m.merge(r, 1, Integer::sum));
        return m;
    }
}
