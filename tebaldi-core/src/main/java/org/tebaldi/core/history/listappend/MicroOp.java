package org.tebaldi.core.history.listappend;

import java.util.List;
import java.util.Objects;

/**
 * One micro-operation of a list-append transaction, as the client issued or observed it: {@code append(key, value)}
 * or {@code read(key, observed)} — the whole list the read returned, oldest element first (empty for an absent or
 * empty key). Keys are strings (e.g. {@code la/3}); values are longs, unique per key over the whole history.
 *
 * @param kind     append or read
 * @param key      the list's key
 * @param value    the appended value (appends only; 0 for reads)
 * @param observed the list read (reads only; empty for appends), immutable
 */
public record MicroOp(Kind kind, String key, long value, List<Long> observed) {
    /** The two kinds of micro-operation. */
    public enum Kind { APPEND, READ }

    /** @throws NullPointerException if {@code kind}, {@code key} or {@code observed} is null */
    public MicroOp {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        observed = List.copyOf(observed);
    }

    /** {@code append(key, value)}. */
    public static MicroOp append(String key, long value) {
        return new MicroOp(Kind.APPEND, key, value, List.of());
    }

    /** {@code read(key) → observed}. */
    public static MicroOp read(String key, List<Long> observed) {
        return new MicroOp(Kind.READ, key, 0, observed);
    }

    /** True for an append. */
    public boolean isAppend() {
        return kind == Kind.APPEND;
    }

    @Override
    public String toString() {
        return isAppend() ? "append(" + key + ", " + value + ")" : "read(" + key + ") = " + observed;
    }
}
