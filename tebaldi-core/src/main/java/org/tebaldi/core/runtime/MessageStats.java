package org.tebaldi.core.runtime;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts messages sent, per message class (simple name; an {@link Envelope} by what it carries, e.g.
 * {@code CcEnvelope/GetWatermark}). Thread-safe; used for the "one request and one reply
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
    /** Envelopes by (envelope class, payload class); names {@code Envelope/Payload}. */
    private final ConcurrentHashMap<String, LongAdder> enveloped = new ConcurrentHashMap<>();
    private final ClassValue<ClassValue<LongAdder>> envelopeCounters = new ClassValue<>() {
        @Override
        protected ClassValue<LongAdder> computeValue(Class<?> envelope) {
            return new ClassValue<>() {
                @Override
                protected LongAdder computeValue(Class<?> payload) {
                    return enveloped.computeIfAbsent(envelope.getSimpleName() + "/" + payload.getSimpleName(),
                            n -> new LongAdder());
                }
            };
        }
    };

    /** Counts one message (a class-value lookup and a striped increment: cheap on the hot path). */
    public void record(Object msg) {
        if (msg instanceof Envelope e && e.payload() != null) {
            envelopeCounters.get(msg.getClass()).get(e.payload().getClass()).increment();
            return;
        }
        counters.get(msg.getClass()).increment();
    }

    /** Messages of exactly this class sent so far (envelopes: whatever they carry). */
    public long count(Class<?> type) {
        LongAdder a = counts.get(type);
        long n = a == null ? 0 : a.sum();
        String prefix = type.getSimpleName() + "/";
        for (Map.Entry<String, LongAdder> e : enveloped.entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                n += e.getValue().sum();
            }
        }
        return n;
    }

    /** Total messages sent so far. */
    public long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum()
                + enveloped.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Counts by class simple name, sorted. */
    @Override
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        counts.forEach((k, v) -> m.merge(k.getSimpleName(), v.sum(), Long::sum));
        enveloped.forEach((k, v) -> m.merge(k, v.sum(), Long::sum));
        return m;
    }

    /** Sets all counters to zero (e.g. after warm-up). */
    @Override
    public void reset() {
        counts.values().forEach(LongAdder::reset);
        enveloped.values().forEach(LongAdder::reset);
    }
}
