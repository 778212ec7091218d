package org.tebaldi.bench.driver;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a driver run measured.
 *
 * @param types         measured-window statistics per transaction type, in report order
 * @param total         the sum over types
 * @param timeline      commits per 100 ms over the whole run (warm-up included), txn/s
 * @param measuredMicros length of the measured window, µs
 * @param abortReasons  aborted attempts in the measured window by normalized cause, most frequent first
 * @param messages      messages sent in the measured window by message class (simple name), from
 *                      {@link org.tebaldi.core.runtime.MessageStats}; empty if none were counted
 * @param inFlightAtEnd logical clients whose last transaction had not finished when the drain timeout expired
 * @param errorSamples  the first error messages ({@code type: exception})
 * @param stoppedEarly  true if the run was cut short because the cluster or the driver failed
 * @param failures      exceptions thrown by workload code inside the driver (empty in a healthy run)
 * @param machine       CPU time and GC pauses over the measured window, or null if not monitored
 * @param window        how warm-up ended and whether the measured window was steady
 */
public record DriverResult(Map<String, TypeStats> types, TypeStats total, List<TimelinePoint> timeline,
                           long measuredMicros, Map<String, Long> messages, int inFlightAtEnd,
                           List<String> errorSamples, boolean stoppedEarly, List<Throwable> failures,
                           Map<String, Long> abortReasons, MachineUsage machine, WindowCheck window) {
    /** Copies the collections (types in order, messages sorted by class name). */
    public DriverResult {
        types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
        timeline = List.copyOf(timeline);
        messages = Collections.unmodifiableMap(new TreeMap<>(messages));
        errorSamples = List.copyOf(errorSamples);
        failures = List.copyOf(failures);
        abortReasons = Collections.unmodifiableMap(new LinkedHashMap<>(abortReasons));
    }

    /** Committed transactions per second in the measured window. */
    public double throughput() {
        return total.throughput(measuredMicros);
    }
}
