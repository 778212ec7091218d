package org.tebaldi.bench.driver;

/** Receives one {@link ProgressTick} per second of a run, on the driver's thread. */
@FunctionalInterface
public interface ProgressListener {
    /** A listener that ignores ticks. */
    ProgressListener NONE = t -> {
    };

    /** Called once per second of the run. */
    void tick(ProgressTick tick);
}
