package org.tebaldi.autoconf.configurator;

import org.tebaldi.autoconf.stats.SettleDetector;

/**
 * Measures windows on a {@link Configurator.Target}: after a swap, samples are read one at a time and discarded
 * until a {@link SettleDetector} says throughput settled; then the window's samples are read and averaged.
 */
final class Meter {
    private final Configurator.Target target;
    private final Configurator.Settings s;

    Meter(Configurator.Target target, Configurator.Settings s) {
        this.target = target;
        this.s = s;
    }

    /**
     * One window of the running tree.
     *
     * @param label   {@code incumbent} or {@code candidate}
     * @param swapped whether the tree was just swapped in (then settling is awaited first)
     */
    Window window(String label, boolean swapped) throws InterruptedException {
        int settle = 0;
        boolean timedOut = false;
        if (swapped) {
            SettleDetector d = new SettleDetector(s.settleWindowSamples(), s.settleAlpha(), s.maxSettleSamples());
            while (!d.offer(target.sample(1)[0])) {
                // discard: throughput has not settled yet
            }
            settle = d.seen();
            timedOut = d.timedOut();
        }
        double[] xs = target.sample(s.windowSamples());
        double sum = 0;
        for (double x : xs) {
            sum += x;
        }
        return new Window(label, sum / xs.length, xs.length, settle, timedOut);
    }
}
