package org.tebaldi.core.proc.analysis;

import java.util.HashSet;
import java.util.Set;

/**
 * Fresh local names for rewritten procedures (package-private): {@code base} if no parameter or local of the
 * procedure uses it yet, else {@code base$2}, {@code base$3}, ... Generated names contain {@code $}.
 */
final class Names {
    private final Set<String> used = new HashSet<>();

    Names(Set<String> taken) {
        used.addAll(taken);
    }

    /** A name no parameter, local or earlier generated name has; reserves it. */
    String fresh(String base) {
        if (used.add(base)) {
            return base;
        }
        for (int i = 2; ; i++) {
            String n = base + "$" + i;
            if (used.add(n)) {
                return n;
            }
        }
    }
}
