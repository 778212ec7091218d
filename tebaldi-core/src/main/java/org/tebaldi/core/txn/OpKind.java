package org.tebaldi.core.txn;

/**
 * Kind of a data operation (DESIGN.md §4). {@code READ_FOR_UPDATE} reads with write intent (exclusive lock in
 * lock-based mechanisms), for read-then-write code that would otherwise deadlock on lock upgrades.
 */
public enum OpKind {
    READ, READ_FOR_UPDATE, WRITE, UPDATE, DELETE;

    /** True if the operation creates a version (write, read-modify-write, delete). */
    public boolean writes() {
        return this == WRITE || this == UPDATE || this == DELETE;
    }

    /** True if the operation returns a row read from storage. */
    public boolean reads() {
        return this == READ || this == READ_FOR_UPDATE || this == UPDATE;
    }

    /** True if a lock-based mechanism takes an exclusive lock for it. */
    public boolean exclusive() {
        return this != READ;
    }
}
