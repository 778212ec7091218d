package org.tebaldi.core.cc;

/**
 * Capability of a {@link TcPart} that keeps data-server state across transactions at the coordinator (e.g. a cache
 * of remote reads and their leases); docs/architecture.md, "Capabilities".
 */
public interface KeepsServerState {
    /**
     * A recovery round began (dissertation §4.5.4): every data server rolls back to a common cut of its log and
     * rebuilds its CC module over re-based versions; the coordinator has aborted every live transaction. Drop the
     * kept state: the versions may be gone and their leases restart.
     */
    void storageRecovered();
}
