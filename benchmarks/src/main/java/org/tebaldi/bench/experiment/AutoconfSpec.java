package org.tebaldi.bench.experiment;

import java.util.List;

/**
 * The {@code autoconf:} section (docs/autoconf.md, dissertation Fig 5.1), read by {@code tebaldi tune}: the tuning
 * daemon starts from the experiment's {@code tree} (ship {@code config/trees/initial.yaml}, Fig 5.2, to start where
 * the dissertation does) after warm-up, and iterates until no bottleneck or no improvement.
 *
 * @param mechanisms     mechanisms tried for new nodes (default [rp, tso], those designed for contention)
 * @param analysisMicros profiling period per iteration, µs (default 3 s)
 * @param measureMicros  throughput test window per tree, µs (default 4 s)
 * @param settleMicros   pause after each swap before measuring, µs (default 1 s)
 * @param maxIterations  iterations at most (default 8)
 * @param maxCandidates  candidates tested per conflict edge at most (default 8)
 * @param edgesPerIteration conflict edges explored per iteration, most severe first, when the first yields no
 *                       improvement (default 3; 1 is exactly the dissertation's Fig 5.1)
 * @param minGain        relative improvement needed to adopt a candidate (default 0.03)
 * @param minScore       bottleneck score, µs of blocking per second, below which tuning stops (default 100,000:
 *                       100 ms of blocking per second, a tenth of one client's time)
 * @param protocol       {@code online} (online update, falling back to partial restart) or {@code partial-restart}
 * @param forceAbortMicros partial restart: force-abort transactions still running this long into clean-up, µs
 *                       (default 200 ms; 0 waits for them)
 * @param finalMicros    measure the final tree this long after tuning ends, then end the run, µs (default 10 s)
 */
public record AutoconfSpec(List<String> mechanisms, long analysisMicros, long measureMicros, long settleMicros,
                           int maxIterations, int maxCandidates, int edgesPerIteration, double minGain,
                           double minScore, String protocol, long forceAbortMicros, long finalMicros) {
    /** The defaults. */
    public static final AutoconfSpec DEFAULT = new AutoconfSpec(List.of("rp", "tso"), 3_000_000, 4_000_000,
            1_000_000, 8, 8, 3, 0.03, 100_000, "online", 200_000, 10_000_000);
}
