package org.tebaldi.core.runtime;

/** A failure inside a simulated run; the message names the seed, so the run can be reproduced. */
public class SimulationException extends RuntimeException {
    private final long seed;

    public SimulationException(long seed, String message, Throwable cause) {
        super("seed=" + seed + ": " + message + " (rerun with this seed to reproduce)", cause);
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }
}
