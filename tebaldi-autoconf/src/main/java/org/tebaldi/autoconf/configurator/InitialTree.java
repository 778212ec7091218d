package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.tree.TreeValidator;

/**
 * The configuration algorithm's initial tree (dissertation §5.2, Fig 5.2): SSI at the root with two children, a
 * {@code none} leaf grouping every read-only transaction type and a 2PL leaf grouping every update type — with a
 * single update group SSI runs its root optimization, effectively multiversion 2PL. Without read-only types it is
 * a single 2PL leaf; without update types a single {@code none} leaf.
 */
public final class InitialTree {
    private InitialTree() {
    }

    /** The spec for {@code db}'s transaction types, in declaration order. */
    public static TreeSpec spec(Database db) {
        List<String> ro = new ArrayList<>();
        List<String> rw = new ArrayList<>();
        for (TxnType t : db.types()) {
            (t.readOnly() ? ro : rw).add(t.name());
        }
        if (ro.isEmpty()) {
            return TreeSpec.leaf("2pl", rw.toArray(new String[0]));
        }
        if (rw.isEmpty()) {
            return TreeSpec.leaf("none", ro.toArray(new String[0]));
        }
        return TreeSpec.inner("ssi", TreeSpec.leaf("none", ro.toArray(new String[0])),
                TreeSpec.leaf("2pl", rw.toArray(new String[0])));
    }

    /**
     * The validated initial tree.
     *
     * @throws org.tebaldi.core.config.ConfigException if it does not validate (e.g. a mechanism is missing)
     */
    public static CcTree of(TreeContext ctx) {
        return TreeValidator.validate(spec(ctx.database()), "<initial configuration, Fig 5.2>", ctx).tree();
    }
}
