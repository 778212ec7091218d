package org.tebaldi.core.service;

/**
 * A singleton service actor that runs under leader election (process mode: {@code zk.Election}; simulated:
 * {@code cluster.Cluster#failService}): each leadership term has a strictly larger epoch, and an instance that takes
 * over after a failure must not rely on anything its predecessor knew.
 */
public interface ElectedService {
    /**
     * Tells the instance the epoch of its term (≥ 1, strictly increasing across terms). Call before the node starts.
     *
     * @throws IllegalArgumentException if {@code epoch < 1}
     */
    void startTerm(long epoch);
}
