package org.tebaldi.autoconf.profiler;

/**
 * An ordered pair of transaction types ⟨blocker, waiter⟩: score(⟨T_i, T_j⟩) is the time transactions of type T_j
 * spent waiting for transactions of type T_i (dissertation §5.3.2).
 */
public record TypePair(int blocker, int waiter) {
    /** The unordered conflict edge of this pair. */
    public ConflictEdge edge() {
        return ConflictEdge.of(blocker, waiter);
    }
}
