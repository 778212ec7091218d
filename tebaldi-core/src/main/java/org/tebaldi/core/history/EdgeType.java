package org.tebaldi.core.history;

import java.util.Locale;

/**
 * Kinds of direct dependency in Adya's Direct Serialization Graph (dissertation §2.2.3; Adya 1999, item-level
 * only). Printed lower case in cycles, e.g. {@code -rw(t2[1, 3])->}.
 */
public enum EdgeType {
    /** Write-write: the source installed a version of a key and the target installed the next one. */
    WW,
    /** Write-read: the target read a version the source installed. */
    WR,
    /** Read-write (anti-dependency): the source read a version and the target installed the next one. */
    RW;

    /** The lower-case form used in messages ({@code ww}, {@code wr}, {@code rw}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
