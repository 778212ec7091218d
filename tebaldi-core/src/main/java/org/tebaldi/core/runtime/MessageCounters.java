package org.tebaldi.core.runtime;

import java.util.Map;

/**
 * Message counters a driver can reset (end of warm-up) and read (end of the measured window): one process's
 * {@link MessageStats}, or the sum over every process of a cluster in process mode.
 */
public interface MessageCounters {
    /** Sets all counters to zero. */
    void reset();

    /** Counts by message class simple name, sorted. */
    Map<String, Long> snapshot();
}
