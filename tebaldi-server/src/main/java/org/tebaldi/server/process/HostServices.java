package org.tebaldi.server.process;

import org.tebaldi.core.runtime.EmbeddedRuntime;

/** What a {@link ControlShell} needs from the process that hosts it. */
public interface HostServices {
    /** The process's runtime (failures, message counters). */
    EmbeddedRuntime runtime();

    /** Messages the process's transport dropped so far. */
    long dropped();

    /** Version of the active tree last seen in ZooKeeper (-1 before the first). */
    int treeVersion();

    /** Stops the process soon (not on the calling actor thread). */
    void requestShutdown(String why);
}
