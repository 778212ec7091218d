package org.tebaldi.core.storage;

/**
 * A transaction that read an uncommitted version written by another transaction. If the writer later
 * overwrites that version in place (the read becomes an intermediate read) or aborts (an aborted read), the
 * data server invalidates the reader (Adya's G1a/G1b, dissertation §2.2.3).
 */
public interface VersionReader {
    /** Marks the reader as unable to commit, with the cause. */
    void doom(String why);
}
