package org.tebaldi.autoconf.configurator;

import java.util.List;
import org.tebaldi.core.tree.CcTree;

/**
 * One iteration of the configuration algorithm (dissertation Fig 5.1): the tree it started from and its measured
 * throughput (txn/s), the bottleneck found, every candidate with its outcome, and the decision.
 *
 * @param number     1-based
 * @param adopted    the tree kept at the end of the iteration (the start tree if nothing improved)
 * @param improved   whether a candidate beat the start tree by the required margin
 */
public record Iteration(int number, CcTree start, double startTxnPerSec, Bottleneck bottleneck,
                        List<Trial> trials, CcTree adopted, double adoptedTxnPerSec, boolean improved) {
    /**
     * One candidate: the conflict edge it addresses (e.g. {@code new_order–payment}), the tree and how it was
     * derived; its throughput (txn/s, NaN if not run), and why it was filtered out or could not run (null if it
     * ran).
     */
    public record Trial(String edge, Candidate candidate, double txnPerSec, String rejected) {
    }
}
