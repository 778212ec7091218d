package org.tebaldi.core.cc;

import org.tebaldi.core.model.Key;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.txn.Op;

/**
 * One operation going through the DS parts of a path (dissertation §4.3.1, execution phase). The framework
 * sets {@link #chosen()} after the read-version chain and {@link #written()} after a write, before the
 * bottom-up {@link DsPart#afterOp} calls.
 */
public interface OpContext {
    Op op();

    default Key key() {
        return op().key();
    }

    /** The versions of the key (created empty if the key is new). */
    VersionChain chain();

    /** During afterOp: the version the read returned (null if the row was absent). */
    Version chosen();

    /** During afterOp: the transaction's version of the key after a write, else null. */
    Version written();

    /**
     * Reports that the owning transaction depends on {@code other} (other is ordered first); attributed to the
     * level of the calling part. Ignored if {@code other} is the owner itself.
     */
    void dependOn(DsTxn other);

    /**
     * Asks that a new version be inserted before the oldest version matching {@code later} instead of appended
     * (TSO's timestamp order). The position is computed when the version is installed, after every level's
     * top-down pass (and whatever waiting it did); when several levels ask, the version goes before the oldest
     * version any of them names, and each level should check in {@code afterOp} that the result respects its
     * order. Only meaningful for writes, in the top-down pass.
     */
    void placeBefore(java.util.function.Predicate<Version> later);
}
