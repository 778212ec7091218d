package org.tebaldi.bench.burn;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * Many burn seeds in parallel: seeds {@code first}, {@code first + 1}, … are handed to {@code threads} workers
 * (each run is deterministic and independent of the others), until {@code seeds} seeds ran or {@code maxMillis}
 * passed (a started seed finishes). Prints a progress line every {@code progressMillis}: seeds done, failures,
 * faults injected by kind, the rate (seeds/s).
 */
public final class BurnCampaign {
    private final long first;
    private final long seeds;
    private final long maxMillis;
    private final int threads;
    private final long progressMillis;
    private final LongFunction<BurnResult> runner;
    private final ConcurrentLinkedQueue<BurnResult> results = new ConcurrentLinkedQueue<>();
    private final AtomicLong next = new AtomicLong();
    private long wallMillis;

    /**
     * @param seeds          the most seeds to run (≥ 1), or {@link Long#MAX_VALUE} for a time limit alone
     * @param maxMillis      wall-clock limit, ms, or {@link Long#MAX_VALUE}
     * @param threads        worker threads (≥ 1)
     * @param progressMillis interval between progress lines, ms
     * @param runner         runs the scenario of a seed (e.g. {@code s -> new BurnRun(ScenarioDraw.draw(s)).run()})
     */
    public BurnCampaign(long first, long seeds, long maxMillis, int threads, long progressMillis,
                        LongFunction<BurnResult> runner) {
        this.first = first;
        this.seeds = seeds;
        this.maxMillis = maxMillis;
        this.threads = threads;
        this.progressMillis = progressMillis;
        this.runner = runner;
    }

    /**
     * Runs the campaign, printing progress to {@code out}.
     *
     * @return the results in seed order
     * @throws InterruptedException if interrupted while waiting for the workers
     */
    public List<BurnResult> run(PrintWriter out) throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = maxMillis == Long.MAX_VALUE ? Long.MAX_VALUE : t0 + maxMillis * 1_000_000L;
        next.set(0);
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "burn");
            t.setDaemon(true);
            return t;
        });
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "burn-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(() -> {
            out.println(progress(System.nanoTime() - t0));
            out.flush();
        }, progressMillis, progressMillis, TimeUnit.MILLISECONDS);
        for (int i = 0; i < threads; i++) {
            pool.execute(() -> {
                while (System.nanoTime() < deadline) {
                    long k = next.getAndIncrement();
                    if (k >= seeds) {
                        return;
                    }
                    results.add(runner.apply(first + k));
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS);
        ticker.shutdownNow();
        wallMillis = (System.nanoTime() - t0) / 1_000_000;
        List<BurnResult> all = new ArrayList<>(results);
        all.sort(Comparator.comparingLong(r -> r.scenario().seed()));
        return all;
    }

    /** Wall-clock time of the last {@link #run}, ms. */
    public long wallMillis() {
        return wallMillis;
    }

    private String progress(long nanos) {
        List<BurnResult> now = new ArrayList<>(results);
        long failed = now.stream().filter(r -> !r.passed()).count();
        double secs = nanos / 1e9;
        return String.format(Locale.ROOT, "burn: %d seeds, %d failed, faults %s, %.1f seeds/s, %.0f s",
                now.size(), failed, faultLabels(faults(now)), now.size() / secs, secs);
    }

    /** Faults injected per kind over {@code results}. */
    public static Map<FaultKind, Long> faults(List<BurnResult> results) {
        Map<FaultKind, Long> m = new EnumMap<>(FaultKind.class);
        for (FaultKind k : FaultKind.values()) {
            m.put(k, 0L);
        }
        results.forEach(r -> r.faults().forEach((k, n) -> m.merge(k, (long) n, Long::sum)));
        return m;
    }

    /** {@code {net-jitter=3, …}}. */
    public static String faultLabels(Map<FaultKind, Long> m) {
        StringBuilder b = new StringBuilder("{");
        m.forEach((k, n) -> b.append(b.length() > 1 ? ", " : "").append(k.label()).append('=').append(n));
        return b.append('}').toString();
    }
}
