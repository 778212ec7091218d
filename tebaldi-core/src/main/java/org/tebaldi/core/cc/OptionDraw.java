package org.tebaldi.core.cc;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * An option a mechanism declares for random trees (the conformance suites and the burn test draw trees over every
 * registered mechanism without naming one; docs/architecture.md, "Adding a mechanism"): on its nodes in {@code
 * scope}, {@code option} takes one of {@code values}, drawn uniformly — or set without a draw when there is one
 * value. A null value leaves the option unset (the mechanism's default).
 *
 * @param option the tree-node option, e.g. {@code deadlock}
 * @param values the values to draw from (at least one; null: unset)
 * @param scope  which of the mechanism's nodes take it
 * @param apart  drawn from a random stream apart from the one that shapes the tree, so adding such a draw leaves
 *               the trees of every seed as they were
 */
public record OptionDraw(String option, List<String> values, Scope scope, boolean apart) {
    /** Which nodes of the mechanism take the option. */
    public enum Scope {
        /** Every node, inner or leaf. */
        EVERY_NODE,
        /** Inner nodes only. */
        INNER,
        /** Leaves only. */
        LEAF,
        /** A leaf that is the whole tree. */
        WHOLE_TREE,
        /**
         * An inner root whose subtree DST snapshots allow (docs/mechanisms.md, "DST"): at most one child holds
         * update types and no {@link Mechanism.Property#MULTIVERSION} mechanism lies below it.
         */
        DST_ROOT
    }

    public OptionDraw {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("option draw '" + option + "' has no values");
        }
        values = Collections.unmodifiableList(Arrays.asList(values.toArray(new String[0])));
    }

    /** An option set to {@code value} on the nodes in {@code scope}, without a draw. */
    public static OptionDraw fixed(String option, String value, Scope scope) {
        return new OptionDraw(option, List.of(value), scope, false);
    }

    /** An option drawn from {@code values} (null: unset) on the nodes in {@code scope}. */
    public static OptionDraw drawn(String option, Scope scope, boolean apart, String... values) {
        return new OptionDraw(option, Arrays.asList(values), scope, apart);
    }
}
