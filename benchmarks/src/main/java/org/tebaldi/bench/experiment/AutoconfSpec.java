package org.tebaldi.bench.experiment;

import java.util.List;

/**
 * The {@code autoconf:} section (docs/autoconf.md, dissertation Fig 5.1), read by {@code tebaldi tune}: the tuning
 * daemon starts from the experiment's {@code tree} (ship {@code config/trees/initial.yaml}, Fig 5.2, to start where
 * the dissertation does) after warm-up, and iterates until no bottleneck or no candidate significantly better.
 *
 * @param mechanisms     mechanisms tried for new nodes (default [rp, tso], those designed for contention)
 * @param analysisMicros profiling period per iteration, µs (default 3 s)
 * @param measureMicros  one measurement window, µs (default 2 s; a multiple of the 100 ms sample period)
 * @param settleMicros   after a swap, wait at most this long for throughput to settle, µs (default 5 s)
 * @param settleWindowMicros the settle detector's trend-test window, µs (default 500 ms)
 * @param rounds         candidate windows per screening and per confirmation, each followed or preceded by an
 *                       incumbent window (default 3, at least 3)
 * @param maxRounds      rounds at most for a promising candidate (point estimate above minGain) whose interval
 *                       still reaches below minGain (default 8, or rounds if larger)
 * @param confidence     level of the gain intervals (default 0.9: adopting is a one-sided test at 5%)
 * @param maxIterations  iterations per tuning pass at most (default 8)
 * @param maxCandidates  candidates screened per conflict edge at most (default 8)
 * @param edgesPerIteration conflict edges explored per iteration, most severe first, when the first yields no
 *                       significantly better candidate (default 3; 1 is exactly the dissertation's Fig 5.1)
 * @param minGain        the gain's interval must lie above this relative gain to adopt (default 0.03)
 * @param minScore       bottleneck score, µs of blocking per second, below which tuning stops (default 100,000:
 *                       100 ms of blocking per second, a tenth of one client's time)
 * @param protocol       {@code online} (online update, falling back to partial restart) or {@code partial-restart}
 * @param forceAbortMicros partial restart: force-abort transactions still running this long into clean-up, µs
 *                       (default 200 ms; 0 waits for them)
 * @param finalMicros    without the daemon: measure the final tree this long after tuning ends, then end the run,
 *                       µs (default 10 s)
 * @param daemon         stay on after tuning until {@code duration} ends, re-entering tuning when the bottleneck
 *                       changes or throughput drifts (default false)
 * @param drift          daemon: relative throughput change whose interval must lie beyond ±drift to re-enter
 *                       (default 0.15)
 */
public record AutoconfSpec(List<String> mechanisms, long analysisMicros, long measureMicros, long settleMicros,
                           long settleWindowMicros, int rounds, int maxRounds, double confidence, int maxIterations,
                           int maxCandidates, int edgesPerIteration, double minGain, double minScore, String protocol,
                           long forceAbortMicros, long finalMicros, boolean daemon, double drift) {
    /** The defaults. */
    public static final AutoconfSpec DEFAULT = new AutoconfSpec(List.of("rp", "tso"), 3_000_000, 2_000_000,
            5_000_000, 500_000, 3, 8, 0.9, 8, 8, 3, 0.03, 100_000, "online", 200_000, 10_000_000, false, 0.15);

    /** Consecutive analyses that must name a new bottleneck edge before the daemon re-enters tuning. */
    public static final int PERSIST = 3;

    /**
     * The confirmation level for a tree abandoned earlier in the session (the flapping guard): five times fewer
     * false adoptions than {@code confidence} allows, e.g. 0.98 for 0.9.
     */
    public double abandonedConfidence() {
        return 1 - (1 - confidence) / 5;
    }
}
