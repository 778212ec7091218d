package org.tebaldi.core.runtime.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link HandlerCost#fit} on synthetic handler sums. */
class HandlerCostTest {
    /** Sums of handlers with {@code units[i]} units taking {@code nanos[i]} ns. */
    private static HandlerProfile.Sums sums(int[] units, long[] nanos) {
        HandlerProfile.Sums s = new HandlerProfile.Sums();
        for (int i = 0; i < units.length; i++) {
            s.add(units[i], 0, nanos[i]);
        }
        return s;
    }

    @Test
    void recoversAnExactLine() {
        int[] u = {0, 1, 2, 5, 10, 3, 3};
        long[] ns = new long[u.length];
        for (int i = 0; i < u.length; i++) {
            ns[i] = 2_000 + 500L * u[i]; // 2 µs + 0.5 µs per unit
        }
        HandlerCost c = HandlerCost.fit(sums(u, ns));
        assertEquals(2.0, c.baseMicros(), 1e-9);
        assertEquals(0.5, c.perUnitMicros(), 1e-9);
        assertEquals(u.length, c.samples());
        assertEquals(7_000, c.nanos(10, false));
    }

    @Test
    void aTimerOfAKindThatReportsUnitsIsFittedPerUnit() {
        // a node's profile of version collection's ticks: 4 µs + 0.25 µs per chain looked at
        HandlerProfile p = new HandlerProfile(org.tebaldi.core.runtime.Role.DS);
        int[] chains = {0, 100, 400, 1_000, 250};
        for (int u : chains) {
            p.timer("version-gc", u, false, 4_000 + 250L * u);
        }
        java.util.Map<String, HandlerProfile.Sums> totals = HandlerProfile.newTotals();
        p.mergeInto(totals);
        HandlerCost c = HandlerCost.fit(totals.get("ds timer/version-gc"));
        assertEquals(4.0, c.baseMicros(), 1e-6);
        assertEquals(0.25, c.perUnitMicros(), 1e-9);
    }

    @Test
    void aNegativeSlopeFallsBackToTheMean() {
        HandlerCost c = HandlerCost.fit(sums(new int[] {0, 1, 2, 3}, new long[] {4_000, 3_000, 2_000, 1_000}));
        assertEquals(2.5, c.baseMicros(), 1e-9);
        assertEquals(0, c.perUnitMicros());
    }

    @Test
    void unitsThatNeverVaryGiveTheMean() {
        HandlerCost c = HandlerCost.fit(sums(new int[] {4, 4, 4}, new long[] {1_000, 2_000, 6_000}));
        assertEquals(3.0, c.baseMicros(), 1e-9);
        assertEquals(0, c.perUnitMicros());
    }

    @Test
    void aNegativeInterceptGivesALineThroughTheOrigin() {
        int[] u = {2, 4, 6};
        long[] ns = {1_000, 3_000, 5_000}; // the exact line is -1 µs + 1 µs per unit
        HandlerCost c = HandlerCost.fit(sums(u, ns));
        assertEquals(0, c.baseMicros());
        double slope = (2 * 1_000 + 4 * 3_000 + 6 * 5_000) / (4.0 + 16 + 36) / 1000; // Σ u·t / Σ u², µs
        assertEquals(slope, c.perUnitMicros(), 1e-9);
    }

    @Test
    void recoversTheColdStartPart() {
        HandlerProfile.Sums s = new HandlerProfile.Sums();
        int[][] uc = {{0, 0}, {1, 1}, {2, 0}, {5, 1}, {3, 0}, {8, 1}, {0, 1}};
        for (int[] x : uc) {
            s.add(x[0], x[1], 1_500 + 400L * x[0] + 2_000L * x[1]); // 1.5 µs + 0.4 µs/unit + 2 µs when cold
        }
        HandlerCost c = HandlerCost.fit(s);
        assertEquals(1.5, c.baseMicros(), 1e-6);
        assertEquals(0.4, c.perUnitMicros(), 1e-6);
        assertEquals(2.0, c.coldMicros(), 1e-6);
        assertEquals(1_500 + 800 + 2_000, c.nanos(2, true));
        assertEquals(1_500 + 800, c.nanos(2, false));
    }

    @Test
    void noSamplesCostNothing() {
        HandlerCost c = HandlerCost.fit(new HandlerProfile.Sums());
        assertEquals(new HandlerCost(0, 0, 0), c);
    }
}
