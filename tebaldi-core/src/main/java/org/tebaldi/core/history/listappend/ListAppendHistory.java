package org.tebaldi.core.history.listappend;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the clients of a list-append run observed (input of {@link ListAppendChecker#check}): every transaction
 * attempt, plus the final read of each key made after the run quiesced (every acknowledged append must be in it).
 *
 * @param txns       the attempts, any order, ids unique
 * @param finalReads key → the list read after the run quiesced (may be empty: then lost appends are only found
 *                   through incompatible orders); immutable
 */
public record ListAppendHistory(List<ObservedTxn> txns, Map<String, List<Long>> finalReads) {
    /** Copies both collections. */
    public ListAppendHistory {
        txns = List.copyOf(txns);
        Map<String, List<Long>> m = new LinkedHashMap<>();
        Objects.requireNonNull(finalReads, "finalReads").forEach((k, v) -> m.put(k, List.copyOf(v)));
        finalReads = java.util.Collections.unmodifiableMap(m);
    }

    /** A history without final reads. */
    public static ListAppendHistory of(ObservedTxn... txns) {
        return new ListAppendHistory(List.of(txns), Map.of());
    }

    /** This history with the final read of {@code key} added (replacing an earlier one). */
    public ListAppendHistory withFinalRead(String key, List<Long> observed) {
        Map<String, List<Long>> m = new LinkedHashMap<>(finalReads);
        m.put(key, observed);
        return new ListAppendHistory(txns, m);
    }
}
