package org.tebaldi.core.runtime.cost;

/**
 * A message whose handling cost grows with what it carries (docs/simulation.md, "Cost model"): the simulated
 * runtime charges {@code base + perUnit × costUnits()} for it, and calibration fits both terms from measured
 * handlers. Messages that do not implement it count 0 units.
 */
public interface CostUnits {
    /** Work units this message carries, e.g. the number of operations of a batch (≥ 0). */
    int costUnits();
}
