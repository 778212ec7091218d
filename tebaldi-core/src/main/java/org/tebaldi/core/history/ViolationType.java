package org.tebaldi.core.history;

/**
 * What a {@link Violation} is, with Adya's phenomenon name (Adya 1999; dissertation §2.2.3) as {@link #code()}.
 */
public enum ViolationType {
    /** G1a aborted read: a committed transaction read a version whose writer aborted or never finished. */
    ABORTED_READ("G1a"),
    /** G1b intermediate read: a committed transaction read a version its writer later overwrote. */
    INTERMEDIATE_READ("G1b"),
    /** G1c circular information flow: a DSG cycle of ww and wr edges only. */
    CIRCULAR_FLOW("G1c"),
    /** G2 anti-dependency cycle: a DSG cycle with at least one rw edge (and no ww/wr-only cycle in its SCC). */
    ANTI_DEPENDENCY_CYCLE("G2"),
    /** The record contradicts itself, so the history cannot be vouched for (e.g. a missing version order). */
    INCONSISTENT_RECORD("record");

    private final String code;

    ViolationType(String code) {
        this.code = code;
    }

    /** Short name: {@code G1a}, {@code G1b}, {@code G1c}, {@code G2} or {@code record}. */
    public String code() {
        return code;
    }
}
