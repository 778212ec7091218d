package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.List;

/**
 * Fig 5.1's testing stage as it was before gain intervals, replayed from the configurator's windows: a candidate's
 * first window against the mean of the incumbent's windows measured so far in the session; the rule "adopts" when
 * the candidate beats that mean by {@code minGain}. Tests assert that their noise fools this rule, so they could
 * not pass without the statistics.
 */
final class NaiveRule implements Configurator.Listener {
    private final double minGain;
    private final List<Double> incumbent = new ArrayList<>();
    private boolean testing;
    private boolean fooled;

    NaiveRule(double minGain) {
        this.minGain = minGain;
    }

    /** Whether the naive rule would have adopted some candidate. */
    boolean fooled() {
        return fooled;
    }

    @Override
    public void testing(int iteration, int index, int count, Candidate c) {
        testing = true;
    }

    @Override
    public void measured(int iteration, Window w) {
        if (w.tree().equals("incumbent")) {
            incumbent.add(w.txnPerSec());
        } else if (testing) {
            testing = false;
            double mean = incumbent.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            fooled |= w.txnPerSec() > mean * (1 + minGain);
        }
    }
}
