package org.tebaldi.bench.run;

import java.io.IOException;
import java.nio.file.Path;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.server.node.ClusterConfig;

/**
 * Something that runs beside an experiment, embedded or in processes mode (e.g. the profiler monitor, the tuning
 * daemon): it may change the cluster configuration, ask for every mechanism's service nodes, host nodes before the
 * clients start, watch the run through a {@link LiveRun}, clean up when the driver ended and write its own result
 * files. Every method is optional.
 */
public interface RunExtension {
    /** The configuration every node gets (e.g. with profiling turned on). */
    default ClusterConfig configure(ClusterConfig cfg) {
        return cfg;
    }

    /** Whether the cluster must run every mechanism's service nodes (e.g. to reconfigure to any mechanism). */
    default boolean allServices() {
        return false;
    }

    /** The cluster is built, the clients have not started: host nodes here. */
    default void beforeStart(Hosting host) {
    }

    /** The clients started (driver thread; return quickly). */
    default void started(LiveRun run) {
    }

    /**
     * The measured window starts: warm-up is over (driver thread, right after the CPU clocks of
     * {@link org.tebaldi.bench.driver.MachineUsage} were read; return quickly).
     */
    default void windowStarted() {
    }

    /**
     * The measured window ended (driver thread, right before the CPU clocks are read again; return quickly). Not
     * called when the run is cut short by a failure.
     */
    default void windowEnded() {
    }

    /** The driver ended (clients drained), the cluster still runs. */
    default void stopped() throws InterruptedException {
    }

    /**
     * Writes the extension's files into the run directory.
     *
     * @throws IOException if a file cannot be written
     */
    default void writeFiles(Path dir, RunResult result) throws IOException {
    }
}
