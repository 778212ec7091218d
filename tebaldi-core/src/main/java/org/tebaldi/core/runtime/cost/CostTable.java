package org.tebaldi.core.runtime.cost;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.tebaldi.core.config.ConfigException;

/**
 * A calibrated cost table, {@code config/costs/<name>.yaml} (docs/simulation.md, "Cost model"): the CPU cost of
 * each handler key ({@code "<role> <message class>"} or {@code "<role> timer"}, see {@link HandlerProfile}) pooled
 * over every calibrated workload, per workload where it was calibrated ({@link #forWorkload}) and per tree where a
 * workload was calibrated under several ({@link #forRun}); the overhead factor — the JVM's CPU time over the time
 * inside handlers (the runtime's queues and timers, the garbage collector, the JIT compiler, the driver), pooled, per
 * workload and per tree — by which every handler cost is multiplied; the encoded size of each message class. In
 * {@code measured} mode the overhead factor scales a handler's own measured time. Written by
 * {@code scripts/tebaldi calibrate}, never by hand from a paper.
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
 * @param trees            each tree's own costs where a workload was calibrated under more than one tree
 *                         ({@code trees:}, {@link #forRun}); may be empty
 */
public record CostTable(String name, Map<String, Object> calibration, double overhead, Map<String, Double> overheads,
                        double wakeMicros, double lateMicros, Map<String, Double> lates, int defaultBytes,
                        Map<String, Integer> bytes,
                        Map<String, HandlerCost> handlers, Map<String, Map<String, HandlerCost>> workloads,
                        LogStoreCosts logStore, List<TreeCosts> trees) {
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
        trees = List.copyOf(trees);
    }

    /** A table without sections by tree. */
    public CostTable(String name, Map<String, Object> calibration, double overhead, Map<String, Double> overheads,
                     double wakeMicros, double lateMicros, Map<String, Double> lates, int defaultBytes,
                     Map<String, Integer> bytes, Map<String, HandlerCost> handlers,
                     Map<String, Map<String, HandlerCost>> workloads, LogStoreCosts logStore) {
        this(name, calibration, overhead, overheads, wakeMicros, lateMicros, lates, defaultBytes, bytes, handlers,
                workloads, logStore, List.of());
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
                defaultBytes, bytes, h, workloads, logStore, trees);
    }

    /** The same table with {@code costs} as its log-store section. */
    public CostTable withLogStore(LogStoreCosts costs) {
        return new CostTable(name, calibration, overhead, overheads, wakeMicros, lateMicros, lates, defaultBytes,
                bytes, handlers, workloads, costs, trees);
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
                h, w, logStore, trees);
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

    /** The same table with {@code sections} as its sections by tree ({@link TreeCosts}). */
    public CostTable withTrees(List<TreeCosts> sections) {
        return new CostTable(name, calibration, overhead, overheads, wakeMicros, lateMicros, lates, defaultBytes,
                bytes, handlers, workloads, logStore, sections);
    }

    /**
     * The section for a run of {@code workload} under a tree of canonical form {@code tree} and shape {@code shape}
     * ({@code CcTree.canonical()}, {@code CcTree.shape()}): the section of that tree, else the only section of that
     * workload with the same shape (the tree differs in its nodes' options only), else none.
     */
    public Optional<TreeCosts> treeSection(String workload, String tree, String shape) {
        List<TreeCosts> same = trees.stream().filter(t -> t.workload().equals(workload)).toList();
        Optional<TreeCosts> exact = same.stream().filter(t -> t.tree().equals(tree)).findFirst();
        if (exact.isPresent()) {
            return exact;
        }
        List<TreeCosts> shaped = same.stream().filter(t -> t.shape().equals(shape)).toList();
        return shaped.size() == 1 ? Optional.of(shaped.get(0)) : Optional.empty();
    }

    /**
     * The table a run of {@code workload} under the tree {@code tree} (canonical form; {@code shape} without options)
     * uses: that tree's own handler costs, overhead and lateness where the table has a section for it
     * ({@link #treeSection}), the workload's elsewhere, the pooled ones for keys neither has ({@link #forWorkload}).
     */
    public CostTable forRun(String workload, String tree, String shape) {
        Optional<TreeCosts> own = treeSection(workload, tree, shape);
        CostTable w = forWorkload(workload);
        if (own.isEmpty()) {
            return w;
        }
        Map<String, HandlerCost> merged = new TreeMap<>(w.handlers);
        merged.putAll(own.get().handlers());
        return new CostTable(name + "/" + workload + "/" + own.get().label(), calibration, own.get().overhead(),
                Map.of(), wakeMicros, own.get().lateMicros(), Map.of(), defaultBytes, bytes, merged, Map.of(),
                logStore);
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
     * Reads a table ({@link CostTableFile#read}).
     *
     * @throws ConfigException naming the file and the place if it cannot be read or a value is missing or negative,
     *                         or {@code calibration.host} is a mapping with a bad field ({@link HostIdentity#fromCalibration})
     */
    public static CostTable read(Path file) {
        return CostTableFile.read(file);
    }

    /**
     * Writes the table as YAML, parent folders created ({@link CostTableFile#write}).
     *
     * @throws IOException if the file cannot be written
     */
    public void write(Path file) throws IOException {
        CostTableFile.write(this, file);
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
        perWorkload.forEach((w, sums) -> workloads.put(w, fitKeys(sums)));
        return new CostTable(name, calibration, overhead, overheads, wakeMicros, lateMicros, lates, defaultBytes, bytes,
                fitKeys(pooled), workloads);
    }

    /**
     * Every key's cost by {@link HandlerCost#fit}, keys of fewer than {@value HandlerCost#MIN_SAMPLES} handlers left
     * out.
     */
    public static Map<String, HandlerCost> fitKeys(Map<String, HandlerProfile.Sums> sums) {
        Map<String, HandlerCost> out = new TreeMap<>();
        sums.forEach((k, s) -> out.put(k, HandlerCost.fit(s)));
        out.keySet().removeIf(k -> sums.get(k).count < HandlerCost.MIN_SAMPLES);
        return out;
    }
}
