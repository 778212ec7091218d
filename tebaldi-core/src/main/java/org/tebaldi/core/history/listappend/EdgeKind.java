package org.tebaldi.core.history.listappend;

/** Dependency kinds between transactions inferred from observed lists (Adya's ww, wr, rw). */
public enum EdgeKind {
    /** {@code a → b}: b appended the element right after a's in the recovered order of a key. */
    WW,
    /** {@code a → b}: b read a list whose last element a appended. */
    WR,
    /** {@code a → b}: a read a prefix that b's append extends by the next element (anti-dependency). */
    RW
}
