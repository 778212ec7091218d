package org.tebaldi.bench.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/** Commits per fixed-size bucket over the whole run (warm-up included); thread-safe. */
final class Timeline {
    /** Bucket length, ms (docs/experiments.md, "summary.json": 100 ms buckets). */
    static final long BUCKET_MS = 100;

    private final long start;
    private final AtomicLongArray counts;

    /** @param start run start, ns; @param lengthNanos run length, ns (the last bucket may be partial) */
    Timeline(long start, long lengthNanos) {
        this.start = start;
        long bucket = BUCKET_MS * 1_000_000;
        this.counts = new AtomicLongArray((int) Math.max(1, (lengthNanos + bucket - 1) / bucket));
    }

    /** Counts a commit at {@code nanos}; ignored outside the run. */
    void record(long nanos) {
        long i = (nanos - start) / (BUCKET_MS * 1_000_000);
        if (nanos - start >= 0 && i < counts.length()) {
            counts.incrementAndGet((int) i);
        }
    }

    /**
     * Commits in the buckets from the one starting at {@code fromNanos} up to the one ending at {@code toNanos}; both
     * must lie on bucket boundaries of the run (its start plus whole buckets).
     */
    long commits(long fromNanos, long toNanos) {
        long bucket = BUCKET_MS * 1_000_000;
        long sum = 0;
        for (long i = Math.max(0, (fromNanos - start) / bucket); i < Math.min(counts.length(), (toNanos - start)
                / bucket); i++) {
            sum += counts.get((int) i);
        }
        return sum;
    }

    /** The buckets in order, each as a rate (commits × 1000 / bucket ms). */
    List<TimelinePoint> points() {
        List<TimelinePoint> l = new ArrayList<>(counts.length());
        for (int i = 0; i < counts.length(); i++) {
            l.add(new TimelinePoint((i + 1) * BUCKET_MS, counts.get(i) * 1000.0 / BUCKET_MS));
        }
        return l;
    }
}
