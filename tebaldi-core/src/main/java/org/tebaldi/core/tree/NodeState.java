package org.tebaldi.core.tree;

/**
 * Lifecycle of a CC-tree node across an online update (dissertation §5.5.2, Fig 5.10). A loaded tree has only
 * active nodes. During an update the old subtree is {@link #DRAINING} beside its replacement: its transactions
 * finish there while new ones go to the new subtree. Once drained it is {@link #RETIRED}: it keeps its place in the
 * structure, so versions its transactions wrote stay in the same groups at every ancestor, but no node runs its CC
 * parts any more.
 */
public enum NodeState {
    /** Runs its CC parts; its leaves receive new transactions. */
    ACTIVE,
    /** Runs its CC parts for transactions already started in it; its leaves receive no new transactions. */
    DRAINING,
    /** Structure only: no CC parts, no transactions. */
    RETIRED
}
