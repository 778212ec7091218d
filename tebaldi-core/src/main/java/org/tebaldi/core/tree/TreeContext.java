package org.tebaldi.core.tree;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.db.Database;

/**
 * What a tree is checked against by {@link TreeValidator}: the database (its transaction types; null skips the
 * type checks), the mechanisms that may appear in the tree, by name, and the composability rules.
 *
 * @param database   the database whose types the leaves must cover exactly once, or null to skip type checks
 * @param mechanisms known mechanisms by name (copied, sorted by name)
 * @param rules      parent/child composability rules
 */
public record TreeContext(Database database, Map<String, Mechanism> mechanisms, CompositionRules rules) {
    /** @throws NullPointerException if {@code mechanisms} or {@code rules} is null */
    public TreeContext {
        mechanisms = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(mechanisms, "mechanisms")));
        Objects.requireNonNull(rules, "rules");
    }

    /** The mechanisms on the class path ({@link Mechanisms#all()}) and the standard rules. */
    public static TreeContext of(Database database) {
        return new TreeContext(database, Mechanisms.all(), CompositionRules.standard());
    }

    /**
     * Explicit mechanisms (e.g. fakes in tests) and the standard rules.
     *
     * @throws IllegalArgumentException if two mechanisms share a name
     */
    public static TreeContext of(Database database, Collection<? extends Mechanism> mechanisms) {
        Map<String, Mechanism> m = new TreeMap<>();
        for (Mechanism x : mechanisms) {
            if (m.put(x.name(), x) != null) {
                throw new IllegalArgumentException("two mechanisms named '" + x.name() + "'");
            }
        }
        return new TreeContext(database, m, CompositionRules.standard());
    }

    /** This context with other composability rules. */
    public TreeContext withRules(CompositionRules other) {
        return new TreeContext(database, mechanisms, other);
    }
}
