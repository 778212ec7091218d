package org.tebaldi.core.cc;

import org.tebaldi.core.model.Key;

/**
 * Capability of a node's services ({@link CcServices}): the cluster placement's lookup table of hot records —
 * contended records a contention-aware partitioner placed (Zamanian et al., SIGMOD 2020, §4.4; every other key
 * follows the default partitioner). Coordinators and data servers answer alike (the placement is part of the
 * cluster configuration). A mechanism that treats hot records apart looks for it once, when its part is made
 * ({@link #of}); docs/architecture.md, "Capabilities".
 */
@FunctionalInterface
public interface HotRecords {
    /** Whether {@code key} is in the placement's hot-record table; false without a placement. */
    boolean hot(Key key);

    /** The hot records {@code services} offer, or none (every key cold) if they do not offer the capability. */
    static HotRecords of(CcServices services) {
        return services instanceof HotRecords h ? h : key -> false;
    }
}
