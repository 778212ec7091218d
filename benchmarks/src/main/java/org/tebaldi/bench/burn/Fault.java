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
 * @param driftPpm       the clock drift of a {@link FaultKind#CLOCK_SKEW}, parts per million (±); else 0 (and not
 *                       written to files)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Fault(FaultKind kind, long atMicros, long durationMicros, List<String> targets, long parameter,
                    String tree, @JsonInclude(JsonInclude.Include.NON_DEFAULT) double driftPpm) {
    public Fault {
        targets = targets == null ? List.of() : List.copyOf(targets);
    }

    /** A fault without clock drift. */
    public Fault(FaultKind kind, long atMicros, long durationMicros, List<String> targets, long parameter,
                 String tree) {
        this(kind, atMicros, durationMicros, targets, parameter, tree, 0);
    }

    /**
     * When it has healed, µs of virtual time: its start plus its duration; for a {@link FaultKind#SERVICE_LOSS} or
     * {@link FaultKind#DS_RESTART} the later of the failure notice and the take-over / restart.
     */
    public long endMicros() {
        if (kind == FaultKind.SERVICE_LOSS || kind == FaultKind.DS_RESTART) {
            return atMicros + Math.max(durationMicros, parameter);
        }
        return atMicros + durationMicros;
    }

    @Override
    public String toString() {
        return kind.label() + "@" + atMicros + "µs" + (durationMicros > 0 ? "+" + durationMicros : "")
                + (targets.isEmpty() ? "" : targets) + (parameter != 0 ? " p=" + parameter : "")
                + (driftPpm != 0 ? " drift=" + driftPpm + "ppm" : "");
    }
}
