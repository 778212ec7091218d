package org.tebaldi.bench.burn;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One fault of a burn {@link Scenario} (what each kind means: {@link FaultKind}).
 *
 * @param kind           what happens
 * @param atMicros       when it starts, µs of virtual time from the start of the run
 * @param durationMicros how long it lasts, µs (0: instantaneous, or the whole run for the network model kinds)
 * @param targets        the nodes it hits, e.g. {@code ["ds0"]} (empty: the whole cluster)
 * @param parameter      the kind's parameter (a delay in µs, a protocol number …; see {@link FaultKind})
 * @param tree           the target tree of a {@link FaultKind#RECONFIG}, in the tree file format; else null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Fault(FaultKind kind, long atMicros, long durationMicros, List<String> targets, long parameter,
                    String tree) {
    public Fault {
        targets = targets == null ? List.of() : List.copyOf(targets);
    }

    /** When it has healed, µs of virtual time (its start plus its duration). */
    public long endMicros() {
        return atMicros + durationMicros;
    }

    @Override
    public String toString() {
        return kind.label() + "@" + atMicros + "µs" + (durationMicros > 0 ? "+" + durationMicros : "")
                + (targets.isEmpty() ? "" : targets) + (parameter != 0 ? " p=" + parameter : "");
    }
}
