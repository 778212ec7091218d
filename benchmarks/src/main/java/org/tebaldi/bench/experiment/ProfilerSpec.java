package org.tebaldi.bench.experiment;

/**
 * The {@code profiler:} section (docs/autoconf.md, dissertation §5.3): whether data servers and coordinators log
 * blocking events, how often they send them to the profiler monitor in a batch, and the monitor's analysis window.
 * Off by default; off means no cost on the hot path. {@code tebaldi tune} turns it on.
 *
 * @param enabled      log blocking events (default false)
 * @param windowMicros analysis window of the monitor, µs (default 1 s)
 * @param flushMicros  how often nodes send their batch of events, µs (default 20 ms)
 */
public record ProfilerSpec(boolean enabled, long windowMicros, long flushMicros) {
    /** The defaults: off, 1 s windows, 20 ms batches. */
    public static final ProfilerSpec OFF = new ProfilerSpec(false, 1_000_000, 20_000);

    /** The same settings, turned on. */
    public ProfilerSpec on() {
        return new ProfilerSpec(true, windowMicros, flushMicros);
    }
}
