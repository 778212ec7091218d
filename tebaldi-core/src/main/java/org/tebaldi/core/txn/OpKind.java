package org.tebaldi.core.txn;

/**
 * Kind of a data operation (docs/architecture.md, "Transactions"). {@code READ_FOR_UPDATE} reads with write intent
 * (exclusive lock in lock-based mechanisms), for read-then-write code that would otherwise deadlock on lock
 * upgrades. {@code UPDATE} is a read-modify-write at the data server that writes nothing when the row is absent;
 * {@code UPSERT} is insert-or-update: it applies the update to the row read, or writes the given row when the row
 * is absent. New kinds go at the end (the wire format carries the ordinal).
 */
public enum OpKind {
    READ, READ_FOR_UPDATE, WRITE, UPDATE, DELETE, UPSERT;

    /** True if the operation creates a version (write, read-modify-write, delete, upsert). */
    public boolean writes() {
        return this == WRITE || this == UPDATE || this == DELETE || this == UPSERT;
    }

    /** True if the operation returns a row read from storage. */
    public boolean reads() {
        return this == READ || this == READ_FOR_UPDATE || this == UPDATE || this == UPSERT;
    }

    /** True if a lock-based mechanism takes an exclusive lock for it. */
    public boolean exclusive() {
        return this != READ;
    }
}
