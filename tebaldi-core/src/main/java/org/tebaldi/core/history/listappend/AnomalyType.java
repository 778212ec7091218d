package org.tebaldi.core.history.listappend;

/**
 * The anomalies the list-append checker reports (Adya's phenomena as Elle infers them from observed lists;
 * Kingsbury and Alvaro, "Elle", VLDB 2020; Adya, MIT 1999).
 */
public enum AnomalyType {
    /** A cycle of ww edges only (write cycle). */
    G0("G0"),
    /** A committed transaction observed a value appended by an aborted one. */
    G1A("G1a"),
    /** A read ended in a value that was not its appender's last append to that key (intermediate read). */
    G1B("G1b"),
    /** A cycle of ww and wr edges with at least one wr edge (circular information flow). */
    G1C("G1c"),
    /** A cycle with exactly one rw edge (read skew and the like). */
    G_SINGLE("G-single"),
    /** A cycle with two or more rw edges, or one that contains no cycle with a single rw edge (write skew). */
    G2("G2"),
    /** Two reads of one key of which neither is a prefix of the other: no single version order explains both. */
    INCOMPATIBLE_ORDER("incompatible-order"),
    /** A value appears twice in one observed list. */
    DUPLICATE_APPEND("duplicate-append"),
    /** A committed append is missing from a read known to follow it (the final read after the run). */
    LOST_APPEND("lost-append"),
    /** A read observed a value that no transaction appended to that key. */
    GARBAGE_READ("garbage-read");

    private final String code;

    AnomalyType(String code) {
        this.code = code;
    }

    /** The short name used in reports, e.g. {@code G-single}. */
    public String code() {
        return code;
    }
}
