package org.tebaldi.core.runtime.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.config.ConfigException;

/**
 * A calibrated cost table, {@code config/costs/<name>.yaml} (docs/simulation.md, "Cost model"): the CPU cost of
 * each handler key ({@code "<role> <message class>"} or {@code "<role> timer"}, see {@link HandlerProfile}) pooled
 * over every calibrated workload, and per workload where it was calibrated ({@link #forWorkload}); the overhead
 * factor — the JVM's CPU time over the time inside handlers (the runtime's queues and timers, the garbage collector,
 * the JIT compiler, the driver), pooled and per workload — by which every handler cost is multiplied; the encoded
 * size of each message class. In {@code measured} mode the overhead factor scales a handler's own measured time. Written by {@code scripts/tebaldi calibrate}, never by hand from a paper.
 *
 * @param name             the table's name (file name without {@code .yaml})
 * @param calibration      where and how it was measured, as written: {@code host} ({@link HostIdentity#toMap}; older
 *                         tables: a host name only), experiments, their {@code verify} modes, totals
 * @param overhead         factor (≥ 1) on every handler cost: machine CPU / CPU inside handlers, pooled
 * @param overheads        the same factor per workload name; may be empty
 * @param wakeMicros       CPU charged when a handler starts on an idle core (a worker that had gone idle — spinning,
 *                         then parked — is woken), µs (≥ 0)
 * @param lateMicros       how late the embedded runtime's emulated network delivered a message after its nominal
 *                         delay, on average, µs: the simulated model of this machine adds it to the latency
 * @param lates            the same per workload
 * @param defaultBytes     encoded size of a message class not in {@code bytes}, bytes
 * @param bytes            encoded size per message class (simple name), bytes
 * @param handlers         handler costs by key, pooled over the calibrated workloads
 * @param workloads        handler costs by key per workload name (e.g. {@code tpcc}); may be empty
 * @param logStore         the simulated durable store's costs ({@code logStore:}, {@code scripts/tebaldi
 *                         calibrate-durability}); null if never measured
 */
public record CostTable(String name, Map<String, Object> calibration, double overhead, Map<String, Double> overheads,
                        double wakeMicros, double lateMicros, Map<String, Double> lates, int defaultBytes,
                        Map<String, Integer> bytes,
                        Map<String, HandlerCost> handlers, Map<String, Map<String, HandlerCost>> workloads,
                        LogStoreCosts logStore) {
    private static final YAMLMapper YAML = new YAMLMapper();

    public CostTable {
        if (!(overhead >= 1) || overheads.values().stream().anyMatch(o -> !(o >= 1)) || !(wakeMicros >= 0)) {
            throw new IllegalArgumentException("an overhead factor must be at least 1: " + overhead + " " + overheads);
        }
        calibration = Collections.unmodifiableMap(new LinkedHashMap<>(calibration));
        overheads = Collections.unmodifiableMap(new TreeMap<>(overheads));
        lates = Collections.unmodifiableMap(new TreeMap<>(lates));
        bytes = Collections.unmodifiableMap(new TreeMap<>(bytes));
        handlers = Collections.unmodifiableMap(new TreeMap<>(handlers));
        Map<String, Map<String, HandlerCost>> w = new TreeMap<>();
        workloads.forEach((k, v) -> w.put(k, Collections.unmodifiableMap(new TreeMap<>(v))));
        workloads = Collections.unmodifiableMap(w);
    }

    /** A table without log-store costs. */
    public CostTable(String name, Map<String, Object> calibration, double overhead, Map<String, Double> overheads,
                     double wakeMicros, double lateMicros, Map<String, Double> lates, int defaultBytes,
                     Map<String, Integer> bytes, Map<String, HandlerCost> handlers,
                     Map<String, Map<String, HandlerCost>> workloads) {
        this(name, calibration, overhead, overheads, wakeMicros, lateMicros, lates, defaultBytes, bytes, handlers,
                workloads, null);
    }

    /**
     * The table a run with durability on uses: the logging handlers' durable costs ({@link LogStoreCosts#handlers})
     * in place of their own; this table itself without a log-store section.
     */
    public CostTable durable() {
        if (logStore == null || logStore.handlers().isEmpty()) {
            return this;
        }
        Map<String, HandlerCost> h = new TreeMap<>(handlers);
        h.putAll(logStore.handlers());
        return new CostTable(name + "+durability", calibration, overhead, overheads, wakeMicros, lateMicros, lates,
                defaultBytes, bytes, h, workloads, logStore);
    }

    /** The same table with {@code costs} as its log-store section. */
    public CostTable withLogStore(LogStoreCosts costs) {
        return new CostTable(name, calibration, overhead, overheads, wakeMicros, lateMicros, lates, defaultBytes,
                bytes, handlers, workloads, costs);
    }

    /**
     * The same table with {@code added} handler costs for keys it lacks, pooled and for {@code workload} (keys it has
     * stay as they are), and {@code addedBytes} sizes for message classes it lacks.
     */
    public CostTable withAddedHandlers(String workload, Map<String, HandlerCost> added,
                                       Map<String, Integer> addedBytes) {
        Map<String, HandlerCost> h = new TreeMap<>(handlers);
        added.forEach(h::putIfAbsent);
        Map<String, Map<String, HandlerCost>> w = new TreeMap<>(workloads);
        if (workloads.containsKey(workload)) {
            Map<String, HandlerCost> own = new TreeMap<>(workloads.get(workload));
            added.forEach(own::putIfAbsent);
            w.put(workload, own);
        }
        Map<String, Integer> b = new TreeMap<>(bytes);
        addedBytes.forEach(b::putIfAbsent);
        return new CostTable(name, calibration, overhead, overheads, wakeMicros, lateMicros, lates, defaultBytes, b,
                h, w, logStore);
    }

    /** A table of pooled costs only. */
    public CostTable(String name, Map<String, Object> calibration, double overhead, int defaultBytes,
                     Map<String, Integer> bytes, Map<String, HandlerCost> handlers) {
        this(name, calibration, overhead, Map.of(), 0, 0, Map.of(), defaultBytes, bytes, handlers, Map.of());
    }

    /**
     * The table a run of {@code workload} uses: that workload's calibrated handler costs and overhead where it
     * has them, the pooled ones elsewhere (a workload never calibrated gets the pooled table).
     */
    public CostTable forWorkload(String workload) {
        Map<String, HandlerCost> own = workloads.get(workload);
        double o = overheads.getOrDefault(workload, overhead);
        double l = lates.getOrDefault(workload, lateMicros);
        if (own == null) {
            return new CostTable(name, calibration, o, Map.of(), wakeMicros, l, Map.of(), defaultBytes, bytes,
                    handlers, Map.of(), logStore);
        }
        Map<String, HandlerCost> merged = new TreeMap<>(handlers);
        merged.putAll(own);
        return new CostTable(name + "/" + workload, calibration, o, Map.of(), wakeMicros, l, Map.of(), defaultBytes,
                bytes, merged, Map.of(), logStore);
    }

    /**
     * The host the table was measured on ({@code calibration.host}: CPU model, cores, Java, speed probe); empty for a
     * table that records none or only a host name (written before they were recorded: the host is unknown).
     */
    public java.util.Optional<HostIdentity> host() {
        return HostIdentity.fromCalibration(name, calibration);
    }

    /**
     * The cost of a key the table lacks: the sample-weighted mean cost (at 0 units) of the keys of the same role,
     * else of all keys, else 0.
     */
    public HandlerCost fallback(String key) {
        int space = key.indexOf(' ');
        String role = space < 0 ? "" : key.substring(0, space + 1);
        double sum = 0;
        long n = 0;
        double all = 0;
        long allN = 0;
        for (Map.Entry<String, HandlerCost> e : handlers.entrySet()) {
            HandlerCost c = e.getValue();
            long w = Math.max(1, c.samples());
            all += c.baseMicros() * w;
            allN += w;
            if (!role.isEmpty() && e.getKey().startsWith(role)) {
                sum += c.baseMicros() * w;
                n += w;
            }
        }
        double mean = n > 0 ? sum / n : allN > 0 ? all / allN : 0;
        return new HandlerCost(mean, 0, 0);
    }

    /**
     * The cost of a message handler that reported kind {@code kind} ({@link HandlerUnits#kind}): the entry of {@code
     * "<key>/<kind>"}, else the message's own {@code key} — what it was charged before its handlers were split by
     * kind (a table calibrated before the split, or on runs without that kind, keeps charging as it did).
     */
    public HandlerCost cost(String key, String kind) {
        HandlerCost c = handlers.get(key + "/" + kind);
        return c != null ? c : cost(key);
    }

    /** The cost of {@code key}: its entry, or {@link #fallback}. */
    public HandlerCost cost(String key) {
        HandlerCost c = handlers.get(key);
        return c != null ? c : fallback(key);
    }

    /**
     * The encoded size of a message named {@code name} (a class's simple name, or {@code Envelope/Payload}), bytes:
     * its entry, else (an envelope) its envelope class's, else {@code defaultBytes}.
     */
    public int bytes(String name) {
        Integer b = bytes.get(name);
        int slash = name.indexOf('/');
        if (b == null && slash > 0) {
            b = bytes.get(name.substring(0, slash));
        }
        return b != null ? b : defaultBytes;
    }

    /**
     * Reads a table.
     *
     * @throws ConfigException naming the file and the place if it cannot be read or a value is missing or negative,
     *                         or {@code calibration.host} is a mapping with a bad field ({@link HostIdentity#fromCalibration})
     */
    public static CostTable read(Path file) {
        String f = file.toString();
        JsonNode root;
        try {
            root = YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new ConfigException(f, 0, "", "cannot read the cost table: " + e.getMessage(),
                    "run scripts/tebaldi calibrate --out " + f);
        }
        if (root == null || !root.isObject()) {
            throw new ConfigException(f, 0, "", "expected a mapping (a cost table)",
                    "run scripts/tebaldi calibrate --out " + f);
        }
        Map<String, Object> calibration = new LinkedHashMap<>();
        JsonNode cal = root.get("calibration");
        if (cal != null && cal.isObject()) {
            calibration.putAll(YAML.convertValue(cal, Map.class));
        }
        HostIdentity.fromCalibration(f, calibration); // a bad host entry fails here, naming the file
        Map<String, Integer> bytes = new TreeMap<>();
        JsonNode b = root.get("bytes");
        if (b != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = b.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                bytes.put(e.getKey(), (int) nonNegative(f, "bytes." + e.getKey(), e.getValue()));
            }
        }
        JsonNode h = root.get("handlers");
        if (h == null || !h.isObject() || h.isEmpty()) {
            throw new ConfigException(f, 0, "handlers", "no handler costs", "run scripts/tebaldi calibrate --out " + f);
        }
        Map<String, HandlerCost> handlers = handlers(f, "handlers", h);
        Map<String, Map<String, HandlerCost>> workloads = new TreeMap<>();
        JsonNode w = root.get("workloads");
        if (w != null && w.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = w.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                workloads.put(e.getKey(), handlers(f, "workloads." + e.getKey(), e.getValue()));
            }
        }
        String name = root.path("name").asText(file.getFileName().toString().replaceFirst("\\.ya?ml$", ""));
        Map<String, Double> overheads = new TreeMap<>();
        JsonNode ov = root.get("overheads");
        if (ov != null && ov.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = ov.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                overheads.put(e.getKey(), atLeastOne(f, "overheads." + e.getKey(), e.getValue()));
            }
        }
        return new CostTable(name, calibration, atLeastOne(f, "overhead", root.get("overhead")), overheads,
                root.has("wakeMicros") ? nonNegative(f, "wakeMicros", root.get("wakeMicros")) : 0,
                root.has("lateMicros") ? nonNegative(f, "lateMicros", root.get("lateMicros")) : 0, lates(f, root),
                root.has("defaultBytes") ? (int) nonNegative(f, "defaultBytes", root.get("defaultBytes")) : 128,
                bytes, handlers, workloads, logStore(f, root.get("logStore")));
    }

    private static LogStoreCosts logStore(String f, JsonNode l) {
        if (l == null || l.isNull()) {
            return null;
        }
        if (!l.isObject()) {
            throw new ConfigException(f, 0, "logStore", "expected a mapping",
                    "run scripts/tebaldi calibrate-durability");
        }
        Map<String, Object> cal = new LinkedHashMap<>();
        if (l.get("calibration") != null && l.get("calibration").isObject()) {
            cal.putAll(YAML.convertValue(l.get("calibration"), Map.class));
        }
        JsonNode h = l.get("handlers");
        return new LogStoreCosts(nonNegative(f, "logStore.groupMicros", l.get("groupMicros")),
                nonNegative(f, "logStore.perRecordMicros", l.get("perRecordMicros")),
                nonNegative(f, "logStore.syncMicros", l.get("syncMicros")),
                h == null || !h.isObject() ? Map.of() : handlers(f, "logStore.handlers", h), cal);
    }

    private static Map<String, Double> lates(String f, JsonNode root) {
        Map<String, Double> out = new TreeMap<>();
        JsonNode l = root.get("lates");
        if (l != null && l.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = l.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.put(e.getKey(), nonNegative(f, "lates." + e.getKey(), e.getValue()));
            }
        }
        return out;
    }

    private static Map<String, HandlerCost> handlers(String f, String at, JsonNode h) {
        Map<String, HandlerCost> handlers = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = h.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String place = at + "." + e.getKey();
            JsonNode v = e.getValue();
            handlers.put(e.getKey(), new HandlerCost(nonNegative(f, place + ".baseMicros", v.get("baseMicros")),
                    v.has("perUnitMicros") ? nonNegative(f, place + ".perUnitMicros", v.get("perUnitMicros")) : 0,
                    v.has("coldMicros") ? nonNegative(f, place + ".coldMicros", v.get("coldMicros")) : 0,
                    v.has("samples") ? (long) nonNegative(f, place + ".samples", v.get("samples")) : 0));
        }
        return handlers;
    }

    private static double atLeastOne(String file, String place, JsonNode v) {
        if (v == null || !v.isNumber() || v.asDouble() < 1) {
            throw new ConfigException(file, 0, place, "expected an overhead factor of at least 1, found "
                    + (v == null ? "nothing" : v.toString()), "run scripts/tebaldi calibrate again");
        }
        return v.asDouble();
    }

    private static double nonNegative(String file, String place, JsonNode v) {
        if (v == null || !v.isNumber() || v.asDouble() < 0) {
            throw new ConfigException(file, 0, place, "expected a non-negative number, found "
                    + (v == null ? "nothing" : v.toString()), "run scripts/tebaldi calibrate again");
        }
        return v.asDouble();
    }

    /**
     * Writes the table as YAML (parent folders created).
     *
     * @throws IOException if the file cannot be written
     */
    public void write(Path file) throws IOException {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("name", name);
        root.set("calibration", YAML.valueToTree(calibration));
        root.put("overhead", round(overhead));
        ObjectNode ov = root.putObject("overheads");
        overheads.forEach((k, v) -> ov.put(k, round(v)));
        root.put("wakeMicros", round(wakeMicros));
        root.put("lateMicros", round(lateMicros));
        ObjectNode lt = root.putObject("lates");
        lates.forEach((k, v) -> lt.put(k, round(v)));
        root.put("defaultBytes", defaultBytes);
        ObjectNode b = root.putObject("bytes");
        bytes.forEach(b::put);
        put(root.putObject("handlers"), handlers);
        ObjectNode w = root.putObject("workloads");
        workloads.forEach((k, v) -> put(w.putObject(k), v));
        if (logStore != null) {
            ObjectNode l = root.putObject("logStore");
            l.put("groupMicros", round(logStore.groupMicros()));
            l.put("perRecordMicros", round(logStore.perRecordMicros()));
            l.put("syncMicros", round(logStore.syncMicros()));
            put(l.putObject("handlers"), logStore.handlers());
            l.set("calibration", YAML.valueToTree(logStore.calibration()));
        }
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, "# CPU cost table for cluster.mode: simulated (docs/simulation.md), written by "
                + "scripts/tebaldi calibrate\n" + YAML.writeValueAsString(root));
    }

    private static void put(ObjectNode h, Map<String, HandlerCost> costs) {
        costs.forEach((k, c) -> {
            ObjectNode o = h.putObject(k);
            o.put("baseMicros", round(c.baseMicros()));
            o.put("perUnitMicros", round(c.perUnitMicros()));
            o.put("coldMicros", round(c.coldMicros()));
            o.put("samples", c.samples());
        });
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /**
     * Fits a table from handler timings of calibration runs: every key's cost by {@link HandlerCost#fit}, pooled
     * and per workload — a key of at least {@value HandlerCost#MIN_SAMPLES} handlers.
     *
     * @param pooled           handler sums by key over all runs ({@link HandlerProfile#mergeInto})
     * @param perWorkload      handler sums by key over each workload's runs
     * @param overhead         see the record (measured by the caller: CPU / handler time over the runs), and
     *                         {@code overheads} per workload
     * @param wakeMicros       see the record (fitted by the caller)
     * @param lateMicros       see the record (measured by the caller), and {@code lates} per workload
     * @param bytes            encoded size per message class
     */
    public static CostTable fit(String name, Map<String, Object> calibration, Map<String, HandlerProfile.Sums> pooled,
                                Map<String, Map<String, HandlerProfile.Sums>> perWorkload, double overhead,
                                Map<String, Double> overheads, double wakeMicros, double lateMicros,
                                Map<String, Double> lates, int defaultBytes, Map<String, Integer> bytes) {
        Map<String, Map<String, HandlerCost>> workloads = new TreeMap<>();
        perWorkload.forEach((w, sums) -> workloads.put(w, fitAll(sums)));
        return new CostTable(name, calibration, overhead, overheads, wakeMicros, lateMicros, lates, defaultBytes, bytes,
                fitAll(pooled), workloads);
    }

    private static Map<String, HandlerCost> fitAll(Map<String, HandlerProfile.Sums> sums) {
        Map<String, HandlerCost> out = new TreeMap<>();
        sums.forEach((k, s) -> out.put(k, HandlerCost.fit(s)));
        out.keySet().removeIf(k -> sums.get(k).count < HandlerCost.MIN_SAMPLES);
        return out;
    }
}
