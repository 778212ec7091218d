package org.tebaldi.core.runtime;

/** The kind of a cluster node (docs/architecture.md, "Runtime"). */
public enum Role {
    /** transaction coordinator */
    TC,
    /** data server */
    DS,
    /** timestamp service (SSI, TSO) */
    TS,
    /** batch manager (SSI pivot batches) */
    BATCH,
    /** profiler monitor */
    MONITOR,
    /** auto-configurator */
    CONFIGURATOR,
    /** a client endpoint (driver side) */
    CLIENT,
    /** the experiment runner's control endpoint in process mode (loading, counters, history collection) */
    CONTROL,
    /** epoch coordinator of epoch-based commit ({@code cluster.commit: epoch}; COCO, Lu et al. VLDB 2021 §3) */
    EPOCH;

    /** Lower-case name as used on the command line ({@code --role tc}). */
    public String cli() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
