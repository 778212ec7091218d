package org.tebaldi.core.runtime.cost;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One CC tree's own costs on one workload, a {@code trees:} section of a cost table (docs/simulation.md, "Costs by
 * tree"): the handler costs, overhead factor and network lateness fitted from that tree's calibration runs alone. A
 * workload's pooled fit averages its trees, so it charges a tree that spends more CPU per handler than the others
 * too little, and a cheaper one too much: on this host the pooled TPC-C fit charged the three-layer tree's runs 0.87
 * and 0.90 of their CPU and 2PL's 1.15 and 1.07, which made the simulated Fig 5.11 ratio 1.17× too high. A
 * simulated run of a tree the table has a section for uses it ({@link CostTable#forRun}).
 *
 * @param workload    the workload's name, e.g. {@code tpcc}
 * @param tree        the tree's canonical form ({@code CcTree.canonical()}: mechanisms, options, groups, types)
 * @param shape       the same without options ({@code CcTree.shape()}): a run of a tree that differs only in its
 *                    nodes' options (e.g. the dissertation profile's dead-lock time-outs) uses this section when no
 *                    other section has the same shape
 * @param experiments the calibration runs it was fitted from, {@code name@clients}; at least one
 * @param overhead    factor (≥ 1) on every handler cost: the runtime's CPU outside handlers over the time inside them
 * @param lateMicros  how late the embedded network delivered a message after its nominal delay, mean, µs (≥ 0)
 * @param handlers    handler costs by key from this tree's runs; a key of fewer than {@value HandlerCost#MIN_SAMPLES}
 *                    handlers there is left out (the workload's or the pooled cost applies)
 */
public record TreeCosts(String workload, String tree, String shape, List<String> experiments, double overhead,
                        double lateMicros, Map<String, HandlerCost> handlers) {
    /** @throws IllegalArgumentException for an overhead below 1, a negative lateness or no experiment */
    public TreeCosts {
        if (!(overhead >= 1) || !(lateMicros >= 0) || experiments.isEmpty()) {
            throw new IllegalArgumentException("a tree's costs need an overhead of at least 1, a lateness of at least"
                    + " 0 and an experiment: " + overhead + ", " + lateMicros + " µs, " + experiments);
        }
        experiments = List.copyOf(experiments);
        handlers = Collections.unmodifiableMap(new TreeMap<>(handlers));
    }

    /** A short name for reports: the first calibration run's experiment name, e.g. {@code tpcc-tebaldi-3layer}. */
    public String label() {
        String first = experiments.get(0);
        int at = first.lastIndexOf('@');
        return at > 0 ? first.substring(0, at) : first;
    }
}
