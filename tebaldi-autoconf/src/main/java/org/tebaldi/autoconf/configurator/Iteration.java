package org.tebaldi.autoconf.configurator;

import java.util.List;
import org.tebaldi.autoconf.stats.GainEstimate;
import org.tebaldi.core.tree.CcTree;

/**
 * One iteration of the configuration algorithm (dissertation Fig 5.1, with the comparisons of docs/autoconf.md):
 * the tree it started from and its mean throughput over the iteration's incumbent windows (txn/s), the bottleneck
 * found, every candidate with its outcome, the winner's confirmation and the decision.
 *
 * @param number       1-based, counted over the whole session (re-entries continue the count)
 * @param adopted      the tree kept at the end of the iteration (the start tree if nothing improved)
 * @param adoptedTxnPerSec the adopted tree's mean over its confirmation windows (the start tree's mean if none)
 * @param improved     whether a candidate's gain was significantly above {@code minGain} in screening and again
 *                     in confirmation
 * @param confirmation the winner's gain on fresh windows (null if no candidate passed screening)
 */
public record Iteration(int number, CcTree start, double startTxnPerSec, Bottleneck bottleneck,
                        List<Trial> trials, CcTree adopted, double adoptedTxnPerSec, boolean improved,
                        GainEstimate confirmation) {
    /** Screening passed: the interval's lower end is above {@code minGain}. */
    public static final String BETTER = "better";
    /** The interval's upper end is below zero. */
    public static final String WORSE = "worse";
    /** Neither. */
    public static final String NOT_SIGNIFICANT = "no significant gain";

    /**
     * One candidate: the conflict edge it addresses (e.g. {@code new_order–payment}), the tree and how it was
     * derived; its mean throughput over its windows (txn/s, NaN if not run), its gain over the incumbent with the
     * interval (null if not run), the verdict ({@link #BETTER}, {@link #WORSE}, {@link #NOT_SIGNIFICANT}; null if
     * not run), and why it was filtered out or could not run (null if it ran).
     */
    public record Trial(String edge, Candidate candidate, double txnPerSec, GainEstimate estimate, String verdict,
                        String rejected) {
        /** A candidate that did not run, with the reason. */
        public static Trial rejected(String edge, Candidate c, String why) {
            return new Trial(edge, c, Double.NaN, null, null, why);
        }
    }
}
