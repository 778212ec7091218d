package org.tebaldi.bench.seats;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tebaldi.bench.sim.SimSeeds;
import org.tebaldi.core.testkit.UnsafeMechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * Short SEATS runs on the simulated runtime (2 TCs, 3 DSs, 3 flights of 24 seats, 40% booked, 40 customers, 8
 * closed-loop clients of 20 transactions, random delays, node pauses on odd seeds) under every shipped SEATS tree —
 * monolithic 2PL, SSI over {none, 2PL}, and the manual tree with one TSO instance per flight (Fig 5.15): every
 * client finishes, no seat is reserved twice, indexes, seat counts and balances agree, and the history is
 * serializable. Each run reserves, deletes and moves seats. A negative control without concurrency control must be
 * caught. {@code -Dtebaldi.seats.seeds=N} runs more seeds.
 */
class SeatsSimulationTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.seats.seeds", 4);
    private static final int CLIENTS = 8;
    private static final int TXNS_EACH = 20;

    static SeatsConfig small() {
        return new SeatsConfig(3, 24, 40, 3, 0.4, 6, 7L);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"seats-2pl", "seats-ssi-2pl", "seats-manual"})
    void shippedTreesKeepSeatsConsistentAndHistoriesSerializable(String name) {
        CcTree tree = SimSeeds.shippedTree(name, new SeatsWorkload(small()));
        SimSeeds.Totals t = SimSeeds.run(() -> new SeatsWorkload(small()), tree, 500 + Math.abs(name.hashCode() % 500),
                SEEDS, CLIENTS, TXNS_EACH);
        SimSeeds.assertClean(name, t, SeatsMix.TYPES, SEEDS * CLIENTS * TXNS_EACH);
        for (String out : new String[] {"new_reservation.reserved", "delete_reservation.deleted",
                "update_reservation.moved"}) {
            assertTrue(t.outputs().getOrDefault(out, 0L) > 0, () -> name + ": no " + out + " in " + t.outputs());
        }
    }

    @Test
    void noConcurrencyControlIsCaught() {
        CcTree tree = CcTree.build(TreeSpec.leaf("unsafe", SeatsMix.TYPES.toArray(new String[0])), "unsafe");
        UnsafeMechanism unsafe = new UnsafeMechanism();
        SimSeeds.Totals t = SimSeeds.run(() -> new SeatsWorkload(small()), tree, 1, 2, CLIENTS, TXNS_EACH,
                n -> n.equals("unsafe") ? unsafe : Mechanisms.get(n));
        assertFalse(t.problems().isEmpty(), "no violation found although nothing regulates conflicts");
        System.out.println("SEATS without concurrency control: " + t.problems().size() + " problems, first: "
                + t.problems().get(0));
    }
}
