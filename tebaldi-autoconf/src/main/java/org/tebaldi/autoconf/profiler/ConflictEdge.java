package org.tebaldi.autoconf.profiler;

/**
 * A conflict edge: an unordered pair of transaction types (dissertation §5.3.2), normalized so {@code a <= b}.
 * {@code a == b} is contention among instances of one type.
 */
public record ConflictEdge(int a, int b) {
    /** The edge between two types, in normal form. */
    public static ConflictEdge of(int x, int y) {
        return x <= y ? new ConflictEdge(x, y) : new ConflictEdge(y, x);
    }

    /** True for contention among transactions of a single type (Fig 5.7's case). */
    public boolean selfEdge() {
        return a == b;
    }
}
