package org.tebaldi.core.history.listappend;

import java.util.List;
import java.util.Objects;

/**
 * One transaction attempt as its client saw it: an id unique in the history, the outcome the client knows, and its
 * micro-operations in program order (only those the client issued; a read whose answer never came is left out).
 *
 * @param id      the attempt's id, unique in the history (not an engine timestamp; any order)
 * @param outcome committed, aborted or unknown
 * @param ops     micro-operations in program order, immutable
 */
public record ObservedTxn(long id, Outcome outcome, List<MicroOp> ops) {
    /** @throws NullPointerException if {@code outcome} or {@code ops} is null */
    public ObservedTxn {
        Objects.requireNonNull(outcome, "outcome");
        ops = List.copyOf(ops);
    }

    /** A committed transaction. */
    public static ObservedTxn committed(long id, MicroOp... ops) {
        return new ObservedTxn(id, Outcome.COMMITTED, List.of(ops));
    }

    /** An aborted transaction. */
    public static ObservedTxn aborted(long id, MicroOp... ops) {
        return new ObservedTxn(id, Outcome.ABORTED, List.of(ops));
    }

    /** A transaction of unknown outcome. */
    public static ObservedTxn unknown(long id, MicroOp... ops) {
        return new ObservedTxn(id, Outcome.UNKNOWN, List.of(ops));
    }
}
