package org.tebaldi.bench.tune;

import org.tebaldi.autoconf.configurator.Bottleneck;
import org.tebaldi.autoconf.configurator.Candidate;
import org.tebaldi.autoconf.configurator.Configurator;
import org.tebaldi.autoconf.configurator.Iteration;
import org.tebaldi.autoconf.configurator.Window;
import org.tebaldi.core.tree.CcTree;

/**
 * Hands every configurator event to two listeners in turn (the console's recorder, then e.g. the live view), on the
 * configurator's thread.
 */
final class TwoListeners implements Configurator.Listener {
    private final Configurator.Listener a;
    private final Configurator.Listener b;

    TwoListeners(Configurator.Listener a, Configurator.Listener b) {
        this.a = a;
        this.b = b;
    }

    @Override
    public void analyzed(int iteration, Bottleneck x, double baselineTxnPerSec) {
        a.analyzed(iteration, x, baselineTxnPerSec);
        b.analyzed(iteration, x, baselineTxnPerSec);
    }

    @Override
    public void exploring(int iteration, int rank, Bottleneck.Edge edge) {
        a.exploring(iteration, rank, edge);
        b.exploring(iteration, rank, edge);
    }

    @Override
    public void testing(int iteration, int index, int count, Candidate c) {
        a.testing(iteration, index, count, c);
        b.testing(iteration, index, count, c);
    }

    @Override
    public void swapped(int iteration, String swap) {
        a.swapped(iteration, swap);
        b.swapped(iteration, swap);
    }

    @Override
    public void measured(int iteration, Window w) {
        a.measured(iteration, w);
        b.measured(iteration, w);
    }

    @Override
    public void tried(int iteration, Iteration.Trial t) {
        a.tried(iteration, t);
        b.tried(iteration, t);
    }

    @Override
    public void confirming(int iteration, Iteration.Trial winner) {
        a.confirming(iteration, winner);
        b.confirming(iteration, winner);
    }

    @Override
    public void decided(Iteration it, String swap) {
        a.decided(it, swap);
        b.decided(it, swap);
    }

    @Override
    public void finished(String why) {
        a.finished(why);
        b.finished(why);
    }

    @Override
    public void watching(CcTree tree, double referenceTxnPerSec, String edge) {
        a.watching(tree, referenceTxnPerSec, edge);
        b.watching(tree, referenceTxnPerSec, edge);
    }

    @Override
    public void reentering(String why) {
        a.reentering(why);
        b.reentering(why);
    }

    @Override
    public void engineDrift(String why) {
        a.engineDrift(why);
        b.engineDrift(why);
    }
}
