package org.tebaldi.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The TPC-C random functions (§2.1.6 NURand, §4.3.2 strings and names). */
class TpccRandomTest {
    private final TpccRandom r = new TpccRandom(1);

    @Test
    void lastNamesFollowTheSyllableTable() {
        assertEquals("BARBARBAR", TpccRandom.lastName(0));
        assertEquals("PRICALLYOUGHT", TpccRandom.lastName(371));
        assertEquals("EINGEINGEING", TpccRandom.lastName(999));
        assertThrows(IllegalArgumentException.class, () -> TpccRandom.lastName(1000));
    }

    @Test
    void nuRandStaysInRangeAndIsSkewed() {
        int[] hits = new int[3001];
        for (int i = 0; i < 300_000; i++) {
            long v = r.nuRand(1023, 1, 3000, 259);
            assertTrue(v >= 1 && v <= 3000, "value " + v);
            hits[(int) v]++;
        }
        int max = 0;
        int min = Integer.MAX_VALUE;
        for (int i = 1; i <= 3000; i++) {
            max = Math.max(max, hits[i]);
            min = Math.min(min, hits[i]);
        }
        assertTrue(max > 4 * Math.max(min, 1), "non-uniform: max " + max + " min " + min);
        for (int i = 0; i < 10_000; i++) {
            long v = r.nuRand(8191, 1, 20, 7000);
            assertTrue(v >= 1 && v <= 20, "scaled-down range: " + v);
        }
    }

    @Test
    void stringsHaveTheRequestedLengthsAndAlphabets() {
        for (int i = 0; i < 1000; i++) {
            String a = r.aString(8, 16);
            assertTrue(a.length() >= 8 && a.length() <= 16 && a.chars().allMatch(Character::isLetterOrDigit), a);
            String n = r.nString(16, 16);
            assertTrue(n.length() == 16 && n.chars().allMatch(Character::isDigit), n);
            String z = r.zip();
            assertTrue(z.matches("[0-9]{4}11111"), z);
        }
    }

    @Test
    void dataHoldsOriginalAboutOneTimeInTen() {
        int original = 0;
        for (int i = 0; i < 10_000; i++) {
            String d = r.data(26, 50);
            assertTrue(d.length() >= 26 && d.length() <= 50);
            original += d.contains("ORIGINAL") ? 1 : 0;
        }
        assertTrue(original > 850 && original < 1150, "ORIGINAL in " + original + " of 10000");
    }

    @Test
    void fixedPointAmountsHaveTheirDecimalsAndBounds() {
        for (int i = 0; i < 1000; i++) {
            double tax = r.fixed(4, 0.0, 0.2);
            assertTrue(tax >= 0 && tax <= 0.2);
            assertEquals(Math.round(tax * 10_000) / 10_000.0, tax);
            double amount = r.fixed(2, 1.0, 5000.0);
            assertTrue(amount >= 1.0 && amount <= 5000.0);
        }
    }

    @Test
    void constantsAreDeterministicPerSeedAndInRange() {
        assertEquals(NuRandConstants.fromSeed(3), NuRandConstants.fromSeed(3));
        assertThrows(IllegalArgumentException.class, () -> new NuRandConstants(256, 0, 0));
    }
}
