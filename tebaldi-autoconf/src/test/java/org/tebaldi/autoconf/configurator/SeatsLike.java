package org.tebaldi.autoconf.configurator;

import static org.tebaldi.core.proc.Exprs.in;
import static org.tebaldi.core.proc.Exprs.lit;

import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Exprs;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeSpec;

/**
 * A SEATS-like database for the configurator's tests: {@code reserve} and {@code cancel} write a flight row chosen
 * by their {@code flight} input, {@code browse} only reads.
 */
final class SeatsLike {
    final Catalog cat = new Catalog();
    final Database db = new Database(cat);
    final TreeContext ctx;

    SeatsLike() {
        cat.add("flight", 1, -1, false, Catalog.longCol("seats"));
        cat.add("customer", 1, -1, false, Catalog.longCol("n"));
        db.procedure(Procedure.define("reserve", cat).params("flight", "cust").body(b -> b
                .read("customer", "c", in("cust"))
                .write("flight", Exprs.row("seats", lit(1L)), in("flight"))).build());
        db.procedure(Procedure.define("cancel", cat).params("flight", "cust").body(b -> b
                .write("flight", Exprs.row("seats", lit(2L)), in("flight"))
                .write("customer", Exprs.row("n", lit(0L)), in("cust"))).build());
        db.interactive("browse", true);
        ctx = TreeContext.of(db);
    }

    /** The canonical form of a tree placed at the root. */
    static String canon(TreeSpec s) {
        return CcTree.build(s.placeAt("root"), "t").canonical();
    }
}
