package org.tebaldi.cc.twopl;

/** Shared (read) or exclusive (write) lock (dissertation §4.4.1). */
enum LockMode {
    S, X;

    LockMode max(LockMode o) {
        return this == X || o == X ? X : S;
    }
}
