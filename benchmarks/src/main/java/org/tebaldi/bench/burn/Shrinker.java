package org.tebaldi.bench.burn;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.tebaldi.core.config.ConfigException;

/**
 * Minimises a failing burn scenario, deterministically: each candidate is run and kept only if it fails with the
 * same {@link Verdict}. Steps, repeated while one of them shrinks something: fewer faults (delta debugging over the
 * fault list: drop halves, then smaller chunks down to single faults), fewer clients (1, half, one fewer), fewer
 * transactions per client (likewise), fewer coordinators and data servers, then a smaller tree ({@link TreeShrink}).
 * Candidates a run would reject (e.g. a tree the composability rules forbid) are skipped. At most {@code maxRuns}
 * runs.
 */
public final class Shrinker {
    private final Function<Scenario, BurnResult> runner;
    private final Consumer<String> progress;
    private final int maxRuns;
    private Verdict kind;
    private BurnResult best;
    private int runs;

    /**
     * @param runner   runs a scenario (e.g. {@code s -> new BurnRun(s).run()})
     * @param progress receives one line per kept reduction
     * @param maxRuns  the most candidate runs
     */
    public Shrinker(Function<Scenario, BurnResult> runner, Consumer<String> progress, int maxRuns) {
        this.runner = runner;
        this.progress = progress;
        this.maxRuns = maxRuns;
    }

    /**
     * The shrunk failure.
     *
     * @param failing a failed result
     * @return the smallest failing result found (its scenario is the reproduction); {@code failing} if nothing shrank
     * @throws IllegalArgumentException if {@code failing} passed
     */
    public BurnResult shrink(BurnResult failing) {
        if (failing.passed()) {
            throw new IllegalArgumentException("nothing to shrink: seed " + failing.scenario().seed() + " passed");
        }
        kind = failing.verdict();
        best = failing;
        runs = 0;
        boolean changed = true;
        while (changed && runs < maxRuns) {
            changed = faults();
            changed |= clients();
            changed |= nodes();
            changed |= tree();
        }
        return best;
    }

    /** Candidate runs so far in the last {@link #shrink}. */
    public int runs() {
        return runs;
    }

    private boolean faults() {
        List<Fault> cur = best.scenario().faults();
        boolean changed = false;
        int n = 2;
        while (cur.size() >= 1 && runs < maxRuns) {
            int chunk = (int) Math.ceil(cur.size() / (double) n);
            boolean reduced = false;
            for (int start = 0; start < cur.size() && runs < maxRuns; start += chunk) {
                List<Fault> rest = new ArrayList<>(cur.subList(0, start));
                rest.addAll(cur.subList(Math.min(cur.size(), start + chunk), cur.size()));
                if (tryKeep(best.scenario().withFaults(rest), "faults " + cur.size() + " → " + rest.size())) {
                    cur = rest;
                    n = Math.max(n - 1, 2);
                    reduced = true;
                    changed = true;
                    break;
                }
            }
            if (!reduced) {
                if (chunk == 1) {
                    break;
                }
                n = Math.min(cur.size(), n * 2);
            }
        }
        return changed;
    }

    private boolean clients() {
        boolean changed = false;
        while (runs < maxRuns) {
            Scenario s = best.scenario();
            boolean step = false;
            for (int c : fewer(s.clients())) {
                if (tryKeep(s.withClients(c, s.txnsPerClient()), "clients " + s.clients() + " → " + c)) {
                    step = true;
                    break;
                }
            }
            if (!step) {
                for (int t : fewer(s.txnsPerClient())) {
                    if (tryKeep(s.withClients(s.clients(), t), "transactions per client " + s.txnsPerClient()
                            + " → " + t)) {
                        step = true;
                        break;
                    }
                }
            }
            if (!step) {
                return changed;
            }
            changed = true;
        }
        return changed;
    }

    private boolean nodes() {
        Scenario s = best.scenario();
        boolean changed = false;
        for (int[] n : new int[][] {{1, 1}, {1, s.dataServers()}, {s.coordinators(), 1},
                {s.coordinators() - 1, s.dataServers()}, {s.coordinators(), s.dataServers() - 1}}) {
            Scenario cur = best.scenario();
            if (n[0] >= 1 && n[1] >= 1 && n[0] + n[1] < cur.coordinators() + cur.dataServers()
                    && n[0] <= cur.coordinators() && n[1] <= cur.dataServers()
                    && tryKeep(cur.withNodes(n[0], n[1]), "nodes " + cur.coordinators() + "+" + cur.dataServers()
                    + " → " + n[0] + "+" + n[1])) {
                changed = true;
            }
        }
        return changed;
    }

    private boolean tree() {
        boolean changed = false;
        boolean step = true;
        while (step && runs < maxRuns) {
            step = false;
            for (String smaller : TreeShrink.candidates(best.scenario().tree())) {
                if (tryKeep(best.scenario().withTree(smaller), "tree collapsed")) {
                    step = true;
                    changed = true;
                    break;
                }
            }
        }
        return changed;
    }

    private static int[] fewer(int n) {
        if (n <= 1) {
            return new int[0];
        }
        return java.util.stream.IntStream.of(1, n / 2, n - 1).filter(x -> x >= 1 && x < n).distinct().toArray();
    }

    private boolean tryKeep(Scenario candidate, String what) {
        if (runs >= maxRuns) {
            return false;
        }
        try {
            ScenarioFiles.check(candidate, "candidate");
        } catch (ConfigException e) {
            return false;
        }
        runs++;
        BurnResult r = runner.apply(candidate);
        if (r.verdict() != kind) {
            return false;
        }
        best = r;
        progress.accept("  shrink: " + what + " (still " + kind.label() + ", run " + runs + ")");
        return true;
    }
}
