package org.tebaldi.core.history.listappend;

/** What a client knows about how a transaction attempt ended (list-append checker input). */
public enum Outcome {
    /** The commit was acknowledged. */
    COMMITTED,
    /** The attempt aborted (by the engine or by the client); none of its appends may be observed. */
    ABORTED,
    /**
     * The client does not know ("info" in Elle): e.g. the coordinator died after the commit was asked. The checker
     * counts such a transaction as committed iff one of its appended values is observed by a read.
     */
    UNKNOWN
}
