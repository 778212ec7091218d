package org.tebaldi.core.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link TreeLoader#toYaml} writes the file format back, and what it writes loads to the same tree. */
class TreeYamlTest {
    private final TreeContext tpcc = Fixtures.ctx(Fixtures.tpcc());

    @Test
    void writesTheDesignFormat() {
        CcTree t = TreeLoader.parse(Fixtures.TPCC_3LAYER, "3layer.yaml", tpcc);
        assertEquals("""
                root:
                  cc: ssi
                  options: {batchInterval: 5ms}
                  children:
                    - cc: none
                      txns: [order_status, stock_level]
                    - cc: 2pl
                      name: updates
                      children:
                        - cc: rp
                          txns: [new_order, payment]
                        - cc: rp
                          txns: [delivery]
                """, TreeLoader.toYaml(t));
    }

    @Test
    void roundTripKeepsEverything() {
        roundTrip(TreeLoader.parse(Fixtures.TPCC_3LAYER, "3layer.yaml", tpcc), tpcc);
        TreeContext seats = Fixtures.ctx(Fixtures.seats());
        CcTree s = roundTrip(TreeLoader.parse(Fixtures.SEATS, "seats.yaml", seats), seats);
        assertEquals("flight_id", s.leafFor("delete_reservation").instanceBy());
    }

    @Test
    void trickyScalarsSurvive() {
        TreeSpec spec = TreeSpec.leaf("2pl", "new_order", "payment", "delivery", "order_status", "stock_level")
                .option("numberAsText", "5")
                .option("boolAsText", "yes")
                .option("nullAsText", "null")
                .option("spaced", "a b: c, [d]")
                .option("quote", "say \"hi\"\\")
                .option("unicode", "50µs")
                .option("count", 64L)
                .option("ratio", 0.25)
                .option("flag", true)
                .option("list", List.of("x", 2L))
                .option("nested", Map.of("k", "v"));
        spec.name = "odd: name";
        CcTree t = TreeValidator.validate(spec, "<code>", tpcc).tree();
        CcTree back = roundTrip(t, tpcc);
        assertEquals("5", back.root().options().get("numberAsText"));
        assertEquals("yes", back.root().options().get("boolAsText"));
        assertEquals(0.25, back.root().options().get("ratio"));
        assertEquals("odd: name", back.root().name());
        assertEquals(50, back.root().durationOption("unicode", 0));
    }

    @Test
    void specWithoutRootKeyWritesRoot() {
        TreeSpec spec = TreeLoader.readSpec("cc: 2pl\ntxns: [a]\n", "x");
        assertEquals("root:\n  cc: 2pl\n  txns: [a]\n", TreeLoader.toYaml(spec));
    }

    /** Writes, reloads and compares node by node; returns the reloaded tree. */
    private static CcTree roundTrip(CcTree t, TreeContext ctx) {
        String yaml = TreeLoader.toYaml(t);
        CcTree back = TreeLoader.parse(yaml, "back.yaml", ctx);
        assertEquals(t.describe(), back.describe());
        assertEquals(t.size(), back.size());
        for (int i = 0; i < t.size(); i++) {
            CcNode a = t.node(i);
            CcNode b = back.node(i);
            assertEquals(a.name(), b.name());
            assertEquals(a.options(), b.options());
            assertEquals(a.instanceBy(), b.instanceBy());
            assertEquals(a.txns(), b.txns());
            assertEquals(a.place(), b.place());
        }
        assertEquals(yaml, TreeLoader.toYaml(back));
        return back;
    }
}
