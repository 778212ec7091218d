package org.tebaldi.core.runtime;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts messages sent, per message class (simple name). Thread-safe; used for the "one request and one reply
 * per data server per phase, whatever the depth" property (dissertation §4.5.2) and {@code summary.json}'s
 * {@code messages} section.
 */
public final class MessageStats implements MessageCounters {
    private final ConcurrentHashMap<Class<?>, LongAdder> counts = new ConcurrentHashMap<>();
    private final ClassValue<LongAdder> counters = new ClassValue<>() {
        @Override
        protected LongAdder computeValue(Class<?> type) {
            return counts.computeIfAbsent(type, c -> new LongAdder());
        }
    };

    /** Counts one message (a class-value lookup and a striped increment: cheap on the hot path). */
    public void record(Object msg) {
        counters.get(msg.getClass()).increment();
    }

    /** Messages of exactly this class sent so far. */
    public long count(Class<?> type) {
        LongAdder a = counts.get(type);
        return a == null ? 0 : a.sum();
    }

    /** Total messages sent so far. */
    public long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Counts by class simple name, sorted. */
    @Override
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        counts.forEach((k, v) -> m.merge(k.getSimpleName(), v.sum(), Long::sum));
        return m;
    }

    /** Sets all counters to zero (e.g. after warm-up). */
    @Override
    public void reset() {
        counts.values().forEach(LongAdder::reset);
    }
}
