package org.tebaldi.server.node;

/**
 * A node's lease on its role (docs/reliability.md, "No split brain"): held while the membership service recently
 * confirmed the node's session, for less than the time after which the cluster may declare the node dead and
 * promote a replacement. A data server with {@code replication.fencing: lease} acknowledges nothing while it does not
 * hold its lease. Any thread.
 */
public interface Lease {
    /** Whether the lease is held now (monotonic clock). */
    boolean held();

    /** How long the lease lasts after a confirmation, ms. */
    long lengthMillis();
}
