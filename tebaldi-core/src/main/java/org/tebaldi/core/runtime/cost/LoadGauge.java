package org.tebaldi.core.runtime.cost;

/**
 * A node whose handlers cost more the more transactions it holds (docs/simulation.md, "Cost model"): lock queues,
 * dependency lists and version chains grow with the transactions in flight, and so does the garbage collector's
 * work. Calibration records the load beside each handler's time; the simulated runtime charges
 * {@code perLoad × load()} on top of the handler's base cost.
 */
public interface LoadGauge {
    /** Transactions live at this node now (≥ 0); called on the node's own thread, before a handler. */
    int load();
}
