package org.tebaldi.autoconf.stats;

import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Decides when throughput has settled after a swap (docs/autoconf.md): samples (txn/s per sample period) are
 * offered one at a time; throughput has settled once the last {@code window} samples show no significant trend — a
 * least-squares line through them (Apache Commons Math {@link SimpleRegression}) whose slope is not significantly
 * different from zero at level {@code alpha} — and none of them is zero (a stall); failing that, after
 * {@code maxSamples} samples. Every sample offered before that point is discarded by the caller.
 * Right after a swap throughput may dip (transactions drain, queued ones start, caches and the JIT adapt to new
 * paths) and climb back; the slope test sees the climb.
 * Not thread-safe.
 */
public final class SettleDetector {
    private final int window;
    private final double alpha;
    private final int maxSamples;
    private final Deque<Double> last = new ArrayDeque<>();
    private int seen;
    private boolean settled;
    private boolean timedOut;

    /**
     * @param window     samples the trend test looks at (at least 3)
     * @param alpha      significance level of the slope test, e.g. 0.05
     * @param maxSamples give up waiting after this many samples (at least {@code window})
     * @throws IllegalArgumentException on a window below 3, alpha outside (0, 1) or maxSamples below window
     */
    public SettleDetector(int window, double alpha, int maxSamples) {
        if (window < 3 || !(alpha > 0 && alpha < 1) || maxSamples < window) {
            throw new IllegalArgumentException("settle detection needs window >= 3, alpha in (0, 1) and "
                    + "maxSamples >= window; got " + window + ", " + alpha + ", " + maxSamples);
        }
        this.window = window;
        this.alpha = alpha;
        this.maxSamples = maxSamples;
    }

    /** Offers the next sample; returns whether throughput has now settled (then it stays settled). */
    public boolean offer(double txnPerSec) {
        if (settled) {
            return true;
        }
        seen++;
        last.addLast(txnPerSec);
        if (last.size() > window) {
            last.removeFirst();
        }
        if (last.size() == window && !trend()) {
            settled = true;
        } else if (seen >= maxSamples) {
            settled = true;
            timedOut = true;
        }
        return settled;
    }

    private boolean trend() {
        SimpleRegression r = new SimpleRegression();
        int x = 0;
        double first = last.peekFirst();
        boolean flat = true;
        for (double y : last) {
            if (y <= 0) {
                return true;
            }
            r.addData(x++, y);
            flat &= y == first;
        }
        if (flat) {
            return false;
        }
        double p = r.getSignificance();
        return !Double.isNaN(p) && p < alpha;
    }

    /** Samples offered until throughput settled (or so far). */
    public int seen() {
        return seen;
    }

    /** Whether detection gave up at {@code maxSamples} rather than seeing a flat window. */
    public boolean timedOut() {
        return timedOut;
    }
}
