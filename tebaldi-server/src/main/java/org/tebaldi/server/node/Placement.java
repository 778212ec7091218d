package org.tebaldi.server.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/**
 * A hot-record placement (Zamanian et al., SIGMOD 2020, §4.4): a lookup table of hot records, each with the data
 * server the contention-aware partitioner put it on, over a fallback partitioner (the default {@link
 * Partitioner#byTable}) for every other key. Its {@link #hot} keys reach the mechanisms as {@link
 * org.tebaldi.core.cc.HotRecords} (e.g. one that runs them in a transaction's inner region).
 *
 * <p>File format (JSON; YAML is read too), written by {@code tebaldi partition}: {@code {"dataServers": 2,
 * "fallback": "hash", "hot": [{"table": "stock", "key": [1, 17], "server": 0}, ...]}}. {@code fallback} names the
 * default partitioner ({@code hash}, the only one). Every problem is reported once with file, place and fix.
 */
public final class Placement implements Partitioner {
    private final Map<Key, Integer> hot;
    private final Partitioner fallback;

    /**
     * @param hot      hot key → data server index (0..n-1)
     * @param fallback the partitioner of every other key
     */
    public Placement(Map<Key, Integer> hot, Partitioner fallback) {
        this.hot = new HashMap<>(hot);
        this.fallback = fallback;
    }

    @Override
    public int partition(Key key) {
        Integer s = hot.get(key);
        return s != null ? s : fallback.partition(key);
    }

    @Override
    public boolean hot(Key key) {
        return hot.containsKey(key);
    }

    /** The lookup table: hot key → data server (unmodifiable). */
    public Map<Key, Integer> hotKeys() {
        return java.util.Collections.unmodifiableMap(hot);
    }

    /** Writes this placement as JSON (the format above) for a cluster of {@code dataServers}. */
    public void write(Path file, Catalog catalog, int dataServers) throws IOException {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("dataServers", dataServers);
        root.put("fallback", "hash");
        ArrayNode arr = root.putArray("hot");
        hot.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            ObjectNode o = arr.addObject();
            o.put("table", catalog.table(e.getKey().table()).name());
            ArrayNode k = o.putArray("key");
            for (int i = 0; i < e.getKey().arity(); i++) {
                k.add(e.getKey().part(i));
            }
            o.put("server", e.getValue());
        });
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        m.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);
    }

    /**
     * Reads a placement file for a cluster of {@code dataServers} over {@code catalog}.
     *
     * @throws IllegalArgumentException naming the file, the place and the fix, for a missing or malformed file, an
     *         unknown table, a key of the wrong arity, a server out of range or a different number of data servers
     */
    public static Placement load(Path file, Catalog catalog, int dataServers) {
        return load(file, catalog, dataServers, null);
    }

    /**
     * As {@link #load(Path, Catalog, int)}, over {@code fallback} (the workload's partitioner; null: {@link
     * Partitioner#byTable}).
     */
    public static Placement load(Path file, Catalog catalog, int dataServers, Partitioner fallback) {
        JsonNode root;
        try {
            root = (file.toString().endsWith(".yaml") || file.toString().endsWith(".yml")
                    ? new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()) : new ObjectMapper())
                    .readTree(file.toFile());
        } catch (IOException e) {
            throw bad(file, "the file", "cannot be read (" + e.getMessage() + ")",
                    "write it with 'scripts/tebaldi partition EXP.yaml --out " + file + "'");
        }
        if (root == null || !root.isObject()) {
            throw bad(file, "the top level", "is not an object", "give {dataServers, fallback, hot: [...]}");
        }
        int n = root.path("dataServers").asInt(-1);
        if (n != dataServers) {
            throw bad(file, "'dataServers'", "is " + root.path("dataServers") + " but the cluster has " + dataServers
                    + " data servers", "partition again for this cluster or set cluster.dataServers: " + n);
        }
        String fb = root.path("fallback").asText("hash");
        if (!fb.equals("hash")) {
            throw bad(file, "'fallback'", "is '" + fb + "'", "use 'hash' (the default partitioner)");
        }
        Map<Key, Integer> hot = new LinkedHashMap<>();
        JsonNode arr = root.path("hot");
        if (!arr.isArray()) {
            throw bad(file, "'hot'", "is not a list", "give a list of {table, key, server}");
        }
        for (int i = 0; i < arr.size(); i++) {
            JsonNode e = arr.get(i);
            String where = "hot[" + i + "]";
            TableSchema t;
            try {
                t = catalog.table(e.path("table").asText(""));
            } catch (IllegalArgumentException x) {
                throw bad(file, where, "names table '" + e.path("table").asText("") + "', which the workload lacks",
                        "use one of " + catalog.tables().stream().map(TableSchema::name).toList());
            }
            JsonNode k = e.path("key");
            if (!k.isArray() || k.size() != t.keyArity()) {
                throw bad(file, where, "has key " + k + " but table " + t.name() + " has " + t.keyArity()
                        + " key parts", "give " + t.keyArity() + " integers");
            }
            long[] parts = new long[k.size()];
            for (int j = 0; j < parts.length; j++) {
                parts[j] = k.get(j).asLong();
            }
            int s = e.path("server").asInt(-1);
            if (s < 0 || s >= dataServers) {
                throw bad(file, where, "has server " + e.path("server") + ", outside 0.." + (dataServers - 1),
                        "give a data server index");
            }
            hot.put(Key.of(t, parts), s);
        }
        return new Placement(hot, fallback != null ? fallback : Partitioner.byTable(catalog, dataServers));
    }

    private static IllegalArgumentException bad(Path file, String place, String problem, String fix) {
        return new IllegalArgumentException("placement file " + file + ": " + place + " " + problem + "; fix: " + fix);
    }
}
