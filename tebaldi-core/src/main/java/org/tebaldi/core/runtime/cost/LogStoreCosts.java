package org.tebaldi.core.runtime.cost;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a data server's durable store costs in the simulated cluster (docs/simulation.md, "Durability"): the CPU
 * its writer thread spends per group of writes it merges into one store write (group commit) and per log record,
 * and how much longer a synced group takes than an unsynced one (the device's sync). Measured on this machine's
 * RocksDB store by {@code scripts/tebaldi calibrate-durability}, never written by hand; the {@code logStore} section
 * of a cost table ({@link CostTable#logStore}).
 *
 * @param groupMicros     writer-thread CPU per group (one store write), µs (≥ 0)
 * @param perRecordMicros writer-thread CPU per log record, µs (≥ 0)
 * @param syncMicros      extra time of a synced group over an unsynced one, µs (≥ 0): the writer waits, its core is
 *                        free
 * @param handlers        the costs, with durability on, of the handlers that log (a data server's validation — units:
 *                        the records of its precommit write, {@link HandlerUnits} — its commit and its abort): they
 *                        replace the table's own costs of those keys in a durable run ({@link CostTable#durable})
 * @param calibration     where, when and how it was measured, as written
 */
public record LogStoreCosts(double groupMicros, double perRecordMicros, double syncMicros,
                            Map<String, HandlerCost> handlers, Map<String, Object> calibration) {
    /** @throws IllegalArgumentException for a negative or non-finite value */
    public LogStoreCosts {
        if (!(groupMicros >= 0) || !(perRecordMicros >= 0) || !(syncMicros >= 0) || Double.isInfinite(groupMicros)
                || Double.isInfinite(perRecordMicros) || Double.isInfinite(syncMicros)) {
            throw new IllegalArgumentException("log store costs must be finite and non-negative: " + groupMicros
                    + " + " + perRecordMicros + "/record, sync " + syncMicros);
        }
        handlers = Collections.unmodifiableMap(new java.util.TreeMap<>(handlers));
        calibration = Collections.unmodifiableMap(new LinkedHashMap<>(calibration));
    }

    /** The handler keys that write to the log store, whose durable costs {@link #handlers} holds. */
    public static final java.util.List<String> LOGGING_HANDLERS = java.util.List.of("ds ValidateRequest",
            "ds CommitRequest", "ds AbortRequest");

    /** The writer's CPU for one group of {@code records} records, ns. */
    public long groupNanos(int records) {
        return Math.round((groupMicros + perRecordMicros * records) * 1000);
    }

    /** The sync's extra time, ns. */
    public long syncNanos() {
        return Math.round(syncMicros * 1000);
    }
}
