package org.tebaldi.core.cc;

/**
 * Capability of a transaction at a data server ({@link DsTxn}): its DS part released locks of it here before its
 * vote — a part of it committed early (e.g. an inner region, Zamanian et al. SIGMOD 2020 §3.3 step 4), so others
 * may read or overwrite its writes before the commit. Under replication the data server then votes only once its
 * backups acknowledged the transaction's precommit record with those writes, in either replication mode (ibid. §5:
 * the commit is reported only after the replicas hold the early-released writes). Without replication, nothing.
 * docs/architecture.md, "Capabilities".
 */
public interface EarlyRelease {
    /** Marks the transaction as having released locks here before its vote. */
    void releasedBeforeVote();

    /** Tells {@code t}'s data server, if it offers the capability, that locks of {@code t} were released early. */
    static void mark(DsTxn t) {
        if (t instanceof EarlyRelease e) {
            e.releasedBeforeVote();
        }
    }
}
