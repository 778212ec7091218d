package org.tebaldi.bench.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.tebaldi.autoconf.profiler.ConflictEdge;
import org.tebaldi.autoconf.profiler.WindowReport;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.bench.driver.LiveTypeSample;

/**
 * Takes one sample of a running experiment into {@link LiveState} (about once a second, on the live view's own
 * thread): per transaction type the throughput (txn/s) and abort rate (aborted / all attempts, 0..1) since the
 * previous sample, the latency percentiles of the commits in between (ms, all types together) and since the start
 * (per type), each hosted node's CPU use (% of one core) and the runner JVM's, the profiler's conflict-edge scores
 * over its most recent windows (ms blocked per s, per unordered pair of types: a symmetric matrix in the types'
 * order, and the edge that scores highest there — the bottleneck, as dissertation §5.3 names it), and memory: the heap
 * after the latest collection, the stores' off-heap and on-disk bytes (MB) and the heap per key (bytes;
 * docs/performance.md, "Rows off the heap"). Reads only counters the run keeps anyway; one caller at a time.
 */
final class LiveSampler {
    /** The heat map sums the profiler windows that ended at most this long before the latest one, µs. */
    static final long HEAT_SPAN_MICROS = 2_000_000;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final LiveState state;
    private final LiveRun run;
    private final Supplier<Map<String, Long>> nodeCpu;
    private final Supplier<List<WindowReport>> profile;
    private final Supplier<org.tebaldi.core.storage.StorageStats> storage;
    private final Map<String, Histogram> perType = new LinkedHashMap<>();
    private Map<String, LiveTypeSample> last;
    private Map<String, Long> lastCpu = Map.of();
    private long lastNanos;
    private long lastProcessCpu;
    private WindowReport lastReport;

    /**
     * @param nodeCpu   CPU time per hosted node so far, ns (empty in processes mode)
     * @param profile   the profiler's window reports so far (empty list without the profiler)
     * @param storage   the data servers' stores summed, or null (nodes in other processes)
     */
    LiveSampler(LiveState state, LiveRun run, Supplier<Map<String, Long>> nodeCpu,
                Supplier<List<WindowReport>> profile, Supplier<org.tebaldi.core.storage.StorageStats> storage) {
        this.state = state;
        this.run = run;
        this.nodeCpu = nodeCpu;
        this.profile = profile;
        this.storage = storage;
        this.last = run.typeSample(); // starts the driver's per-type counting
        this.lastNanos = System.nanoTime();
        this.lastProcessCpu = os.getProcessCpuTime();
        this.lastCpu = nodeCpu.get();
        for (String t : state.types()) {
            perType.put(t, new Histogram(3));
        }
    }

    /** Milliseconds since the run started at {@code nanos}. */
    long ms(long nanos) {
        return (nanos - run.startNanos()) / 1_000_000;
    }

    /** Takes one sample now. */
    void sample() {
        long now = System.nanoTime();
        double secs = Math.max(1, now - lastNanos) / 1e9;
        Map<String, LiveTypeSample> cur = run.typeSample();
        ObjectNode s = F.objectNode();
        s.put("tMs", ms(now));
        s.put("phase", now - run.measureStartNanos() < 0 ? "warmup" : "measure");
        ObjectNode txn = s.putObject("txn");
        ObjectNode abort = s.putObject("abort");
        Histogram all = new Histogram(3);
        long dc = 0;
        long da = 0;
        for (Map.Entry<String, LiveTypeSample> e : cur.entrySet()) {
            LiveTypeSample p = last.get(e.getKey());
            long c = e.getValue().commits() - (p == null ? 0 : p.commits());
            long a = e.getValue().aborts() - (p == null ? 0 : p.aborts());
            dc += c;
            da += a;
            txn.put(e.getKey(), c / secs);
            abort.put(e.getKey(), c + a == 0 ? 0 : (double) a / (c + a));
            all.add(e.getValue().latencyMicros());
            perType.computeIfAbsent(e.getKey(), k -> new Histogram(3)).add(e.getValue().latencyMicros());
        }
        s.put("total", dc / secs);
        s.put("abortTotal", dc + da == 0 ? 0 : (double) da / (dc + da));
        ObjectNode lat = s.putObject("latencyMs");
        for (double p : new double[] {50, 95, 99}) {
            lat.put("p" + (int) p, all.getTotalCount() == 0 ? null : all.getValueAtPercentile(p) / 1000.0);
        }
        s.set("cpu", cpu(now));
        s.set("memory", memory());
        last = cur;
        lastNanos = now;
        state.sample(s);
        state.latency(latencyTable());
        heat();
    }

    private ObjectNode cpu(long now) {
        ObjectNode o = F.objectNode();
        double wall = Math.max(1, now - lastNanos);
        long pc = os.getProcessCpuTime();
        o.put("jvm", 100.0 * (pc - lastProcessCpu) / wall);
        lastProcessCpu = pc;
        Map<String, Long> cur = nodeCpu.get();
        for (Map.Entry<String, Long> e : cur.entrySet()) {
            o.put(e.getKey(), 100.0 * (e.getValue() - lastCpu.getOrDefault(e.getKey(), 0L)) / wall);
        }
        lastCpu = new HashMap<>(cur);
        return o;
    }

    /** Heap after GC, off-heap and disk MB, keys and heap bytes per key (nulls where the nodes are elsewhere). */
    private ObjectNode memory() {
        ObjectNode m = F.objectNode();
        long afterGc = org.tebaldi.bench.run.MemoryFigures.heapAfterGcBytes();
        m.put("heapAfterGcMb", afterGc / (double) (1 << 20));
        org.tebaldi.core.storage.StorageStats st = storage.get();
        if (st == null) {
            m.putNull("offHeapMb");
            m.putNull("diskMb");
            m.putNull("keys");
            m.putNull("heapPerKeyB");
            return m;
        }
        m.put("offHeapMb", st.offHeapBytes() / (double) (1 << 20));
        m.put("diskMb", st.diskBytes() / (double) (1 << 20));
        m.put("keys", st.keys());
        m.put("hotKeys", st.hotKeys());
        if (st.keys() > 0) {
            m.put("heapPerKeyB", afterGc / st.keys());
        } else {
            m.putNull("heapPerKeyB");
        }
        return m;
    }

    private ArrayNode latencyTable() {
        ArrayNode a = F.arrayNode();
        for (Map.Entry<String, Histogram> e : perType.entrySet()) {
            Histogram h = e.getValue();
            ObjectNode o = a.addObject();
            o.put("type", e.getKey());
            o.put("count", h.getTotalCount());
            for (double p : new double[] {50, 95, 99, 99.9}) {
                o.put("p" + (p == 99.9 ? "999" : String.valueOf((int) p)),
                        h.getTotalCount() == 0 ? null : h.getValueAtPercentile(p) / 1000.0);
            }
        }
        return a;
    }

    /** The latest profiler windows as a matrix over type pairs, when a new window arrived. */
    private void heat() {
        List<WindowReport> reports = profile.get();
        if (reports.isEmpty() || reports.get(reports.size() - 1) == lastReport) {
            return;
        }
        WindowReport latest = reports.get(reports.size() - 1);
        lastReport = latest;
        List<String> types = state.types();
        double[][] m = new double[types.size()][types.size()];
        long micros = 0;
        int events = 0;
        for (int i = reports.size() - 1; i >= 0 && latest.endMicros() - reports.get(i).endMicros() < HEAT_SPAN_MICROS;
             i--) {
            WindowReport r = reports.get(i);
            micros += r.endMicros() - r.startMicros();
            events += r.events();
            for (Map.Entry<ConflictEdge, Long> e : r.edges().entrySet()) {
                int a = e.getKey().a();
                int b = e.getKey().b();
                if (a < types.size() && b < types.size()) {
                    m[a][b] += e.getValue();
                    m[b][a] = m[a][b];
                }
            }
        }
        ObjectNode h = F.objectNode();
        h.put("spanMs", micros / 1000);
        h.put("events", events);
        int ba = -1;
        int bb = -1;
        for (int a = 0; a < m.length; a++) {
            for (int b = a; b < m.length; b++) {
                if (m[a][b] > 0 && (ba < 0 || m[a][b] > m[ba][bb])) {
                    ba = a;
                    bb = b;
                }
            }
        }
        h.put("bottleneck", ba < 0 ? null : types.get(ba) + "–" + types.get(bb));
        ArrayNode rows = h.putArray("msPerSec");
        for (double[] row : m) {
            ArrayNode r = rows.addArray();
            for (double v : row) {
                r.add(micros == 0 ? 0 : Math.round(v / micros * 1000 * 10) / 10.0);
            }
        }
        state.heat(h);
    }
}
