package org.tebaldi.core.history;

import java.util.function.Supplier;

/**
 * Where a recording node hands over its history while a run goes on (docs/architecture.md, "Verification"): every
 * coordinator and data server calls {@link #handOver} from its own thread every period — an empty log too, since a
 * transaction is complete only once every node handed over after its outcome. Implementations number the chunks in
 * the order of the swaps: {@link HistoryStream} checks them in this JVM as they arrive (the streamed check),
 * {@link HistorySpill} writes them to disk, to be checked after the measured window or by a checker process
 * ({@link SpillCheck}).
 */
public interface HistoryHandOver {
    /**
     * Node {@code source} hands over what it recorded: {@code swap} returns the node's log and starts a new one; it
     * runs under the implementation's lock, on the node's thread, so that chunk numbers follow the order of swaps.
     *
     * @param source the node's number, 0 .. sources-1 (coordinators first, then data servers)
     * @throws IllegalStateException if the hand-over point was closed
     */
    void handOver(int source, Supplier<HistoryLog> swap);
}
