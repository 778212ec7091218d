package org.tebaldi.autoconf.configurator;

import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.tebaldi.core.tree.CcTree;

/**
 * A model cluster with the noise of a shared 2-core machine, for the configurator's statistical tests: each tree
 * (by canonical form) has a true throughput and a scripted bottleneck; every 100 ms sample is the true throughput
 * times (a) a slowly drifting machine speed (AR(1) on the log, φ = 0.98, stationary sd 0.10 — other tenants), (b)
 * correlated per-sample noise (AR(1) on the log, φ = 0.5, sd 0.30 — what TPC-C's timeline shows: CV 0.35–0.41,
 * lag-1 autocorrelation 0.5), (c) a GC-pause-like dip to 20% in 3% of samples, and (d) after each swap a climb back
 * over three samples (30%, 60%, 85%). Everything derives from the seed. Ends the run (throws
 * {@link InterruptedException}) after {@code maxSamples} samples.
 */
final class NoisyModel implements Configurator.Target {
    final Map<String, Bottleneck> bottlenecks;
    Function<String, Double> truth;
    String running;
    long samples;
    long maxSamples = Long.MAX_VALUE;
    private final Random r;
    private double speed;
    private double local;
    private int sinceSwap = 100;

    NoisyModel(long seed, CcTree start, Map<String, Bottleneck> bottlenecks, Function<String, Double> truth) {
        this.r = new Random(seed);
        this.running = start.canonical();
        this.bottlenecks = bottlenecks;
        this.truth = truth;
        this.speed = 0.10 * r.nextGaussian();
    }

    @Override
    public Bottleneck analyze() throws InterruptedException {
        sample(30);
        return bottlenecks.get(running);
    }

    @Override
    public double[] sample(int count) throws InterruptedException {
        double[] xs = new double[count];
        for (int i = 0; i < count; i++) {
            if (++samples > maxSamples) {
                throw new InterruptedException("the model run ended");
            }
            speed = 0.98 * speed + 0.10 * Math.sqrt(1 - 0.98 * 0.98) * r.nextGaussian();
            local = 0.5 * local + 0.30 * Math.sqrt(1 - 0.25) * r.nextGaussian();
            double x = truth.apply(running) * Math.exp(speed + local);
            if (r.nextDouble() < 0.03) {
                x *= 0.2;
            }
            if (sinceSwap < 3) {
                x *= new double[] {0.3, 0.6, 0.85}[sinceSwap];
            }
            sinceSwap++;
            xs[i] = x;
        }
        return xs;
    }

    @Override
    public String swap(CcTree tree) {
        running = tree.canonical();
        sinceSwap = 0;
        return "swapped";
    }
}
