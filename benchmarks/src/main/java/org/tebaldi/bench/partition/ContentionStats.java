package org.tebaldi.bench.partition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.server.node.AccessSampler;

/**
 * Sampled contention statistics (Zamanian et al., SIGMOD 2020, §4.1): the data servers report every
 * operation of a random sample of transactions (a transaction is sampled when a hash of its id falls below the
 * rate, so every server samples the same transactions), and this collects, per sampled transaction, the records it
 * read and wrote — the per-record read and write counts and the transactions' stars both come from it. Thread-safe
 * (data servers report from their actor threads). Also read from and written to a stats file (JSON), so a later
 * {@code tebaldi partition --stats FILE} can partition without running again.
 */
public final class ContentionStats implements AccessSampler {
    /** One sampled transaction's accesses: record → whether it wrote it. */
    public record Txn(Map<Key, Boolean> accesses) {
    }

    private final double rate;
    private final long cut;
    private final LinkedHashMap<Long, Map<Key, Boolean>> txns = new LinkedHashMap<>();
    private long windowMicros;

    /**
     * @param rate share of transactions sampled, in (0, 1] (the paper samples 0.1 %)
     * @throws IllegalArgumentException outside (0, 1]
     */
    public ContentionStats(double rate) {
        if (!(rate > 0 && rate <= 1)) {
            throw new IllegalArgumentException("sampling rate must be in (0, 1], not " + rate);
        }
        this.rate = rate;
        this.cut = rate >= 1 ? Long.MAX_VALUE : (long) (rate * Long.MAX_VALUE);
    }

    /** The sampling rate. */
    public double rate() {
        return rate;
    }

    @Override
    public boolean sampled(long txnId) {
        long h = txnId * 0x9E3779B97F4A7C15L;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        return (h & Long.MAX_VALUE) <= cut;
    }

    @Override
    public synchronized void access(int ds, long txnId, Key key, boolean write) {
        txns.computeIfAbsent(txnId, x -> new HashMap<>()).merge(key, write, Boolean::logicalOr);
    }

    /** Sets the length of the window the sample was taken over, µs (for the access rates). */
    public synchronized void window(long micros) {
        this.windowMicros = micros;
    }

    /** The window length, µs. */
    public synchronized long windowMicros() {
        return windowMicros;
    }

    /** The sampled transactions, in first-access order. */
    public synchronized List<Txn> txns() {
        List<Txn> out = new ArrayList<>(txns.size());
        txns.values().forEach(m -> out.add(new Txn(Map.copyOf(m))));
        return out;
    }

    /** Writes {@code {rate, windowMicros, txns: [[{table, key, write}, ...], ...]}}. */
    public synchronized void write(Path file, Catalog catalog) throws IOException {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("rate", rate);
        root.put("windowMicros", windowMicros);
        ArrayNode arr = root.putArray("txns");
        for (Map<Key, Boolean> t : txns.values()) {
            ArrayNode a = arr.addArray();
            t.forEach((k, w) -> {
                ObjectNode o = a.addObject();
                o.put("table", catalog.table(k.table()).name());
                ArrayNode parts = o.putArray("key");
                for (int i = 0; i < k.arity(); i++) {
                    parts.add(k.part(i));
                }
                o.put("write", w);
            });
        }
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        m.writeValue(file.toFile(), root);
    }

    /**
     * Reads a stats file written by {@link #write}.
     *
     * @throws IllegalArgumentException naming the file, the place and the fix
     */
    public static ContentionStats read(Path file, Catalog catalog) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("stats file " + file + " cannot be read (" + e.getMessage()
                    + "); fix: write it with 'scripts/tebaldi partition EXP.yaml --stats-out " + file + "'");
        }
        double rate = root.path("rate").asDouble(-1);
        if (!(rate > 0 && rate <= 1) || !root.path("txns").isArray()) {
            throw new IllegalArgumentException("stats file " + file + ": 'rate' must be in (0, 1] and 'txns' a list; "
                    + "fix: write it with 'scripts/tebaldi partition EXP.yaml --stats-out " + file + "'");
        }
        ContentionStats s = new ContentionStats(rate);
        s.windowMicros = root.path("windowMicros").asLong();
        long id = 0;
        for (JsonNode t : root.path("txns")) {
            id++;
            for (JsonNode a : t) {
                long[] parts = new long[a.path("key").size()];
                for (int i = 0; i < parts.length; i++) {
                    parts[i] = a.path("key").get(i).asLong();
                }
                Key k;
                try {
                    k = Key.of(catalog.table(a.path("table").asText()), parts);
                } catch (IllegalArgumentException x) {
                    throw new IllegalArgumentException("stats file " + file + ": transaction " + id + ": "
                            + x.getMessage() + "; fix: write the stats for this workload");
                }
                s.txns.computeIfAbsent(id, x -> new HashMap<>()).merge(k, a.path("write").asBoolean(),
                        Boolean::logicalOr);
            }
        }
        return s;
    }
}
