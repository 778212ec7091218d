package org.tebaldi.bench.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code retry:} section: after the n-th aborted attempt of a transaction the client waits
 * {@code min(maxBackoff, backoff * 2^(n-1))} with jitter (a uniform draw from the upper half) before retrying —
 * unless the abort came from a mechanism listed in {@code byMechanism}, whose fixed delay applies instead
 * (dissertation §4.6.1: "In SSI, we allow aborted transactions to backoff for 5 milliseconds before retrying";
 * which mechanism aborted an attempt is read from its abort reason, {@code driver.AbortCause}).
 *
 * @param backoffMicros      first back-off, µs (default 1 ms)
 * @param maxBackoffMicros   cap, µs, at least {@code backoffMicros} (default 50 ms)
 * @param byMechanismMicros  fixed back-off, µs, after an abort by each listed mechanism (e.g. {@code ssi -> 5000});
 *                           empty by default
 */
public record RetrySpec(long backoffMicros, long maxBackoffMicros, Map<String, Long> byMechanismMicros) {
    /** Copies the map, keeping its order. */
    public RetrySpec {
        byMechanismMicros = Collections.unmodifiableMap(new LinkedHashMap<>(byMechanismMicros));
    }

    /** The same back-off after every abort. */
    public RetrySpec(long backoffMicros, long maxBackoffMicros) {
        this(backoffMicros, maxBackoffMicros, Map.of());
    }
}
