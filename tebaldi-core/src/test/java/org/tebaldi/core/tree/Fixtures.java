package org.tebaldi.core.tree;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;

/** Test fixtures: fake mechanisms (tebaldi-core has none on its class path) and small databases. */
final class Fixtures {
    private Fixtures() {
    }

    /**
     * A mechanism that only has a name, an option check and its declared properties; it cannot run transactions.
     */
    record FakeMechanism(String name, Function<CcNode, List<String>> check) implements Mechanism {
        @Override
        public List<String> checkOptions(CcNode node) {
            return check.apply(node);
        }

        /** Like the real {@code none}: a leaf for read-only types only. */
        @Override
        public boolean readOnlyLeaf() {
            return name.equals("none");
        }

        @Override
        public TcPart<?> tcPart(CcNode node, TcServices services) {
            throw new UnsupportedOperationException("fake mechanism " + name);
        }

        @Override
        public DsPart<?> dsPart(CcNode node, DsServices services) {
            throw new UnsupportedOperationException("fake mechanism " + name);
        }
    }

    /**
     * Fakes for 2pl, rp, ssi, tso and none. 2pl checks option {@code lockTimeout} (a duration) the way a real
     * mechanism would; ssi throws from {@code checkOptions} when {@code explode} is set.
     */
    static List<Mechanism> mechanisms() {
        Function<CcNode, List<String>> none = n -> List.of();
        Function<CcNode, List<String>> twoPl = n -> {
            List<String> problems = new ArrayList<>();
            try {
                n.durationOption("lockTimeout", 0);
            } catch (IllegalArgumentException e) {
                problems.add("option 'lockTimeout': " + e.getMessage());
            }
            return problems;
        };
        Function<CcNode, List<String>> ssi = n -> {
            n.longOption("explode", 0);
            return List.of();
        };
        return List.of(new FakeMechanism("2pl", twoPl), new FakeMechanism("rp", none), new FakeMechanism("ssi", ssi),
                new FakeMechanism("tso", none), new FakeMechanism("none", none));
    }

    /** TPC-C's five types (inputs simplified); order_status and stock_level read-only. */
    static Database tpcc() {
        Database db = new Database(new Catalog());
        db.interactive("new_order", false, "w_id", "d_id", "c_id");
        db.interactive("payment", false, "w_id", "d_id", "c_id");
        db.interactive("delivery", false, "w_id");
        db.interactive("order_status", true, "w_id", "d_id", "c_id");
        db.interactive("stock_level", true, "w_id", "d_id");
        return db;
    }

    /** SEATS-like types: reservations by flight, find_flights read-only. */
    static Database seats() {
        Database db = new Database(new Catalog());
        db.interactive("new_reservation", false, "flight_id", "seat");
        db.interactive("delete_reservation", false, "flight_id", "seat");
        db.interactive("update_reservation", false, "seat");
        db.interactive("find_flights", true, "depart");
        return db;
    }

    static TreeContext ctx(Database db) {
        return TreeContext.of(db, mechanisms());
    }

    /** The 3-layer TPC-C tree of dissertation Fig 4.6d as written in docs/trees.md. */
    static final String TPCC_3LAYER = """
            # config/trees/tebaldi-3layer.yaml
            root:
              cc: ssi
              options: {batchInterval: 5ms}
              children:
                - cc: none
                  txns: [order_status, stock_level]
                - cc: 2pl
                  name: updates          # optional display name
                  children:
                    - {cc: rp, txns: [new_order, payment]}
                    - {cc: rp, txns: [delivery]}
            """;

    /** SEATS tree after Fig 5.15: per-flight TSO leaves under 2PL, read-only under SSI. */
    static final String SEATS = """
            root:
              cc: ssi
              children:
                - cc: none
                  txns: [find_flights]
                - cc: 2pl
                  options: {lockTimeout: 50ms}
                  children:
                    - cc: tso
                      instanceBy: flight_id
                      txns: [new_reservation, delete_reservation]
                    - cc: 2pl
                      txns: [update_reservation]
            """;
}
