package org.tebaldi.bench.run;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.tebaldi.core.codec.ByteArrayEncoder;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.CodecRegistry;

/**
 * Encoded message sizes for the cost table's {@code bytes} (docs/simulation.md, "Calibration"): encodes sampled
 * messages with the wire codecs (the same tagged value processes mode writes into a frame) and averages the size
 * per message class, frame included. Classes without a codec (messages that never leave their JVM) are skipped
 * and listed by {@link #local}. Not thread-safe.
 */
public final class MessageSizes {
    /**
     * Bytes a Netty frame adds around the message (tebaldi-server {@code net/Frames}): 4-byte length, kind byte,
     * sender and receiver ids (a role byte and a one-byte var-int index each, for indexes below 128).
     */
    public static final int FRAME_BYTES = 9;

    private final CodecRegistry registry;
    /** Per class simple name: total bytes, messages encoded. */
    private final Map<String, long[]> sums = new TreeMap<>();
    private final TreeSet<String> local = new TreeSet<>();

    /** @param registry the wire codecs, e.g. {@link CodecRegistry#classPath()} */
    public MessageSizes(CodecRegistry registry) {
        this.registry = registry;
    }

    /** Encodes every sample of {@code samples} (by class simple name) and adds its size, bytes. */
    public void add(Map<String, List<Object>> samples) {
        samples.forEach((name, msgs) -> {
            for (Object m : msgs) {
                if (!registry.supports(m.getClass())) {
                    local.add(name);
                    continue;
                }
                ByteArrayEncoder e = new ByteArrayEncoder(registry);
                try {
                    e.writeValue(m);
                } catch (CodecException x) {
                    local.add(name); // e.g. a lambda update, which only embedded mode carries
                    continue;
                }
                long[] s = sums.computeIfAbsent(name, k -> new long[2]);
                s[0] += e.size() + FRAME_BYTES;
                s[1]++;
            }
        });
    }

    /** Mean encoded size per message class (simple name), bytes, frame included. */
    public Map<String, Integer> averages() {
        Map<String, Integer> out = new TreeMap<>();
        sums.forEach((k, s) -> out.put(k, (int) Math.round((double) s[0] / s[1])));
        return out;
    }

    /** Mean size over every encoded sample, bytes, or {@code fallback} if none was encoded. */
    public int overall(int fallback) {
        long bytes = 0;
        long n = 0;
        for (long[] s : sums.values()) {
            bytes += s[0];
            n += s[1];
        }
        return n == 0 ? fallback : (int) Math.round((double) bytes / n);
    }

    /** Classes seen that could not be encoded (no wire codec), sorted. */
    public List<String> local() {
        return local.stream().filter(k -> !sums.containsKey(k)).toList();
    }
}
