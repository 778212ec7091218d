package org.tebaldi.core.history;

import java.util.List;
import java.util.Objects;

/**
 * One problem found by {@link SerializabilityChecker}: its type, a human-readable message (transactions formatted
 * as {@code T<tc>.<seq>} with their type where known, keys as {@code t<table>[parts]}), the transaction ids
 * involved (for a cycle: its nodes in cycle order, starting anywhere; for a read: reader then writer), and for
 * a cycle its edges in order (empty otherwise).
 */
public record Violation(ViolationType type, String message, List<Long> txns, List<DsgEdge> cycle) {
    /** Copies the lists. @throws NullPointerException if any argument is null */
    public Violation {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(message, "message");
        txns = List.copyOf(txns);
        cycle = List.copyOf(cycle);
    }

    /** {@code [code] message}, e.g. {@code [G2] cycle: T1.5 -rw(t2[1])-> T0.9 -rw(t2[2])-> T1.5}. */
    @Override
    public String toString() {
        return "[" + type.code() + "] " + message;
    }
}
