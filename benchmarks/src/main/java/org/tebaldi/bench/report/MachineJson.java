package org.tebaldi.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code summary.json}'s {@code machine} section (docs/performance.md, "Is the machine the limit?"): cores, wall and
 * process CPU time (ms), utilization, per-node CPU, the collector's pauses, and — simulated runs — the busiest nodes'
 * CPU by handler key ({@code handlers}); null when the run has no measurement.
 */
final class MachineJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private MachineJson() {
    }

    static com.fasterxml.jackson.databind.JsonNode of(org.tebaldi.bench.driver.MachineUsage m) {
        if (m == null) {
            return JSON.nullNode();
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("cores", m.cores());
        o.put("wallMs", m.wallMs());
        o.put("cpuMs", m.processCpuMs());
        o.put("utilization", SummaryJson.round(m.utilization(), 4));
        ObjectNode nodes = o.putObject("nodes");
        m.nodeCpuMs().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey()).forEach(e -> nodes.putObject(
                e.getKey()).put("cpuMs", e.getValue())
                .put("utilization", SummaryJson.round(m.nodeUtilization(e.getKey()), 4)));
        if (!m.handlerUs().isEmpty()) {
            ObjectNode handlers = o.putObject("handlers"); // busiest nodes: handler key -> virtual CPU, µs and share
            m.handlerUs().forEach((node, keys) -> {
                ObjectNode n = handlers.putObject(node);
                long total = keys.values().stream().mapToLong(Long::longValue).sum();
                keys.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).forEach(e ->
                        n.putObject(e.getKey()).put("cpuUs", e.getValue())
                                .put("share", SummaryJson.round(total == 0 ? 0 : (double) e.getValue() / total, 4)));
            });
        }
        ObjectNode gc = o.putObject("gc");
        gc.put("pauses", m.gcPauses());
        gc.put("pauseMs", m.gcPauseMs());
        gc.put("maxPauseMs", m.gcMaxPauseMs());
        gc.put("pauseShare", SummaryJson.round(m.gcPauseShare(), 4));
        if (m.jitShare() != null) {
            o.putObject("jit").put("compileMs", m.jitMs()).put("share", SummaryJson.round(m.jitShare(), 4))
                    .put("busy", m.jitBusy());
        }
        o.put("saturated", m.saturated());
        if (m.saturated()) {
            o.put("warning", org.tebaldi.bench.driver.MachineUsage.WARNING);
        } else {
            o.putNull("warning");
        }
        return o;
    }
}
