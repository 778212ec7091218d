package org.tebaldi.bench.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.config.Durations;

/**
 * The workload's shifts during a run (docs/experiments.md, "Workload shifts"): {@code workload.shift} lists, in time
 * order, when the workload changes and which of its options change, e.g.
 * {@code shift: [{at: 30m, mix: hot_item}]} — from 30 minutes after the clients started (warm-up included) every
 * client draws its transactions under the new options. A workload that supports shifts names the options that may
 * change ({@code shiftable}) and reads each entry's values with the typed getters of {@link #options(int)}; the
 * clients ask {@link #phase()} which entry is in force (0: none yet, {@code i}: entry {@code i - 1}) before each
 * transaction. The first client to draw under a new phase records when ({@link #happened()}), for
 * {@code summary.json}'s {@code shifts}. Thread-safe after {@link #read}.
 */
public final class Shifts {
    /** No shift: always phase 0. */
    public static final Shifts NONE = new Shifts(List.of(), List.of(), List.of());

    /**
     * A shift as it happened.
     *
     * @param phase       1 for the first entry of {@code workload.shift}, ...
     * @param atMs        when it was due, ms since the clients started
     * @param firstMs     when the first transaction under it was drawn, ms since the clients started (-1: never)
     * @param changes     the options it changed, as written
     */
    public record Happened(int phase, long atMs, long firstMs, Map<String, Object> changes) {
    }

    private final List<Long> atMicros;
    private final List<Map<String, Object>> changes;
    private final List<WorkloadOptions> options;
    private final AtomicLongArray first;
    private volatile LongSupplier clock = () -> 0;

    private Shifts(List<Long> atMicros, List<Map<String, Object>> changes, List<WorkloadOptions> options) {
        this.atMicros = List.copyOf(atMicros);
        this.changes = List.copyOf(changes);
        this.options = List.copyOf(options);
        this.first = new AtomicLongArray(atMicros.size());
        for (int i = 0; i < atMicros.size(); i++) {
            first.set(i, -1);
        }
    }

    /**
     * Reads {@code workload.shift} from {@code o}: a list of maps, each with {@code at} (a duration after the
     * clients started, later than the previous entry's) and at least one of {@code shiftable}.
     *
     * @return {@link #NONE} when the section has no {@code shift}
     * @throws org.tebaldi.core.config.ConfigException at {@code workload.shift}, {@code workload.shift[i]} or
     *                                                 {@code workload.shift[i].key}, saying what to write
     */
    public static Shifts read(WorkloadOptions o, Set<String> shiftable) {
        JsonNode list = o.raw("shift");
        if (list == null) {
            return NONE;
        }
        String example = "write e.g. shift: [{at: 30m, " + new TreeSet<>(shiftable).first() + ": ...}]";
        if (!list.isArray() || list.isEmpty()) {
            throw o.error("shift", "expected a list of shifts, found " + Values.describe(list), example);
        }
        List<Long> at = new ArrayList<>();
        List<Map<String, Object>> changes = new ArrayList<>();
        List<WorkloadOptions> views = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String place = "workload.shift[" + i + "]";
            JsonNode e = list.get(i);
            if (!e.isObject()) {
                throw o.errorAt(place, "expected a map like {at: 30m, ...}, found " + Values.describe(e), example);
            }
            JsonNode when = e.get("at");
            if (when == null) {
                throw o.errorAt(place, "a shift needs 'at', the time after the clients started", example);
            }
            long micros;
            try {
                micros = Durations.parseMicros(when.isNumber() ? when.numberValue() : when.asText());
            } catch (IllegalArgumentException x) {
                throw o.errorAt(place + ".at", x.getMessage(), "write e.g. at: 30m (or 90s, 500ms)");
            }
            if (micros <= 0 || (!at.isEmpty() && micros <= at.get(at.size() - 1))) {
                throw o.errorAt(place + ".at", "must be after " + (at.isEmpty() ? "0"
                        : "the previous shift's " + Durations.format(at.get(at.size() - 1))) + ", found "
                        + Durations.format(micros), "list the shifts in time order, each at a later time");
            }
            ObjectNode rest = ((ObjectNode) e).deepCopy();
            rest.remove("at");
            if (rest.isEmpty()) {
                throw o.errorAt(place, "this shift changes nothing", "add an option to change, one of "
                        + String.join(", ", new TreeSet<>(shiftable)));
            }
            for (Iterator<String> k = rest.fieldNames(); k.hasNext(); ) {
                String key = k.next();
                if (!shiftable.contains(key)) {
                    throw o.errorAt(place + "." + key, "'" + key + "' cannot change during a run of workload '"
                            + o.workload() + "'", "shift one of " + String.join(", ", new TreeSet<>(shiftable))
                            + ", or run separate experiments");
                }
            }
            at.add(micros);
            @SuppressWarnings("unchecked")
            Map<String, Object> m = new ObjectMapper().convertValue(rest, LinkedHashMap.class);
            changes.add(m);
            views.add(o.shifted(rest, place));
        }
        return new Shifts(at, changes, views);
    }

    /** Number of shifts (phases are 0 .. size). */
    public int size() {
        return atMicros.size();
    }

    /**
     * The options entry {@code i} (0-based) changes, for typed reading; defaults are the workload's own values.
     * Call {@link WorkloadOptions#rejectUnread} on it after reading.
     */
    public WorkloadOptions options(int i) {
        return options.get(i);
    }

    /** Sets the run's clock: µs since the clients started (virtual under simulation); ignored without shifts. */
    public void clock(LongSupplier runMicros) {
        if (!atMicros.isEmpty()) {
            this.clock = runMicros;
        }
    }

    /** The phase in force now: 0 before the first shift, {@code i} from shift {@code i} on. */
    public int phase() {
        if (atMicros.isEmpty()) {
            return 0;
        }
        long now = clock.getAsLong();
        int p = 0;
        while (p < atMicros.size() && now >= atMicros.get(p)) {
            p++;
        }
        if (p > 0 && first.get(p - 1) < 0) {
            first.compareAndSet(p - 1, -1, now);
        }
        return p;
    }

    /** Every shift with when it was due and when it first applied. */
    public List<Happened> happened() {
        List<Happened> out = new ArrayList<>();
        for (int i = 0; i < atMicros.size(); i++) {
            long f = first.get(i);
            out.add(new Happened(i + 1, atMicros.get(i) / 1000, f < 0 ? -1 : f / 1000, changes.get(i)));
        }
        return out;
    }
}
