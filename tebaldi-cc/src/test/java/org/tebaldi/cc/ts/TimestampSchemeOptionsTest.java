package org.tebaldi.cc.ts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tebaldi.cc.occ.OptimisticConcurrencyControl;
import org.tebaldi.cc.sundial.Sundial;
import org.tebaldi.cc.tictoc.TicToc;
import org.tebaldi.cc.tso.TimestampOrdering;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.ts.HybridClock;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * The {@code timestamps} option beyond SSI: tso leaves and occ take {@code gts} and {@code dst}, an inner
 * tso refuses {@code dst} with its reason, tictoc and sundial refuse the option (they take no timestamps); a dst
 * tso leaf needs no timestamp service; DST's unique timestamps.
 */
class TimestampSchemeOptionsTest {
    private static CcNode root(TreeSpec spec) {
        return CcTree.build(spec, "t").root();
    }

    @Test
    void tsoLeavesTakeBothSchemesAndDstNeedsNoService() {
        TimestampOrdering tso = new TimestampOrdering();
        for (String s : List.of("gts", "dst")) {
            assertEquals(List.of(), tso.checkOptions(root(TreeSpec.leaf("tso", "a").option("timestamps", s))));
        }
        assertEquals(Map.of(), tso.services(root(TreeSpec.leaf("tso", "a").option("timestamps", "dst"))));
        assertTrue(tso.services(root(TreeSpec.leaf("tso", "a"))).containsKey(Role.TS));
    }

    @Test
    void anInnerTsoRefusesDstWithItsReason() {
        List<String> p = new TimestampOrdering().checkOptions(root(TreeSpec.inner("tso", TreeSpec.leaf("2pl", "a"),
                TreeSpec.leaf("2pl", "b")).option("timestamps", "dst")));
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("option 'timestamps': dst runs only on tso leaves"), p.get(0));
        assertTrue(p.get(0).contains("registry of open batches"), p.get(0));
    }

    @Test
    void occTakesBothSchemesAndNamesUnknownOnes() {
        Mechanism occ = new OptimisticConcurrencyControl();
        for (String s : List.of("gts", "dst")) {
            assertEquals(List.of(), occ.checkOptions(root(TreeSpec.leaf("occ", "a").option("timestamps", s))));
        }
        assertEquals(List.of("option 'timestamps': unknown timestamp scheme 'vts' (allowed: gts, dst)"),
                occ.checkOptions(root(TreeSpec.leaf("occ", "a").option("timestamps", "vts"))));
    }

    @Test
    void ticTocAndSundialRefuseTheOptionWithTheReason() {
        for (Mechanism m : List.of(new TicToc(), new Sundial())) {
            for (String s : List.of("gts", "dst")) {
                List<String> p = m.checkOptions(root(TreeSpec.leaf(m.name(), "a").option("timestamps", s)));
                assertEquals(1, p.size(), p.toString());
                assertTrue(p.get(0).startsWith("option 'timestamps': " + m.name() + " takes no timestamps"), p.get(0));
                assertTrue(p.get(0).contains("leases"), p.get(0));
            }
            assertEquals(List.of(), m.checkOptions(root(TreeSpec.leaf(m.name(), "a"))));
        }
    }

    @Test
    void uniqueTimestampsDifferAcrossNodesAndGrow() {
        long[] now = {7_000_000};
        HybridClock a = new HybridClock(() -> now[0]);
        HybridClock b = new HybridClock(() -> now[0]);
        Set<Long> seen = new HashSet<>();
        long last = -1;
        for (int i = 0; i < 3000; i++) { // beyond 2^6 per millisecond: the counter carries into the physical part
            long x = a.unique(3);
            long y = b.unique(5);
            assertTrue(x > last, "not increasing");
            last = x;
            assertTrue(seen.add(x) && seen.add(y), "duplicate at " + i);
            assertEquals(3, x & ((1 << HybridClock.SLOT_BITS) - 1));
        }
        a.observe(last + 1_000_000);
        assertTrue(a.unique(3) > last + 1_000_000, "an observed timestamp moves the clock past it");
        assertThrows(IllegalArgumentException.class, () -> a.unique(1 << HybridClock.SLOT_BITS));
    }
}
