package org.tebaldi.core.cc.lock;

/** Shared (read) or exclusive (write) lock (dissertation §4.4.1, §4.4.2). */
public enum LockMode {
    S, X;

    /** The stronger of the two modes. */
    public LockMode max(LockMode o) {
        return this == X || o == X ? X : S;
    }
}
