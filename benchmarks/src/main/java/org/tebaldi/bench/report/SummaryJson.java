package org.tebaldi.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.driver.TimelinePoint;
import org.tebaldi.bench.driver.TypeStats;
import org.tebaldi.bench.experiment.ResolvedConfig;
import org.tebaldi.bench.run.Checks;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.server.msg.AbortRequest;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateRequest;

/**
 * Builds {@code summary.json} exactly in the schema of docs/experiments.md, "summary.json" — {@code name, throughput, committed, aborted,
 * abortRate, latency{p50Ms,p95Ms,p99Ms}, types{<type>{throughput,abortRate,p50Ms,p99Ms}}, timeline[{tMs,
 * throughput}], checks{serializable,consistency}, messages{perTxn,tcToDsPerPhase}, config} — plus added keys:
 * {@code errors}, {@code tsMessagesPerTxn}, {@code roVisibilityLagMs}, {@code roBlockedReads} (timestamp schemes); per type {@code committed, aborted, errors, p95Ms}; {@code checks.serializabilityReport,
 * consistencyDetail, consistencyProblems}; {@code messages.total, counts}; {@code run{...}}; {@code machine{cores,
 * wallMs, cpuMs, utilization, nodes{<node>{cpuMs, utilization}}, gc{pauses, pauseMs, maxPauseMs, pauseShare},
 * jit{compileMs, share, busy} (real runs whose JVM reports compile time),
 * saturated, warning}} over the measured window (null when not measured); {@code window{warmupMs, settled, steady,
 * samples, meanTxnPerSec, slopePctPerSec, slopeP, cv, warning}}: how warm-up ended and whether the measured window
 * was steady; {@code shifts[{phase, atMs, firstMs, changes}]}: the workload's shifts ({@code workload.shift}); {@code time} ({@code real}, or
 * {@code virtual} for {@code cluster.mode: simulated}, whose throughput, latencies, timeline and machine figures are
 * in virtual time) and {@code simulation{machines, coresPerMachine, costs, costMode, virtualMs, wallMs,
 * wallPerVirtualSecond, costsHost, host, costsOnOtherHost, hostCheck, machineUtilization[{machine, hosts,
 * utilization}]}} (null for real runs; {@code costsHost}: the host the cost table was measured on — CPU model, cores,
 * Java, speed probe — or null when the table does not record it; {@code host}: this host with its probe;
 * {@code costsOnOtherHost}: true, false, or null when unknown; {@code hostCheck}: the line printed about it,
 * docs/simulation.md "Calibration"); one key per labelled counter group of the registered mechanisms
 * ({@link org.tebaldi.core.cc.CounterGroup}, e.g. {@code cache{lookups, hits, served, renewals, renewalFailures,
 * hitRate, servedRate}} for a tree that caches remote reads; null when no part reported it). Units: throughput
 * txn/s, latencies ms, rates 0..1. A ratio with no committed transaction, and latencies with none, are null;
 * checks not run are null. On {@code target: postgresql} no messages are counted: {@code messages.perTxn} and
 * {@code messages.tcToDsPerPhase} are null, and {@code checks.serializable} is null (not checked) with the reason
 * in {@code checks.serializabilityReport}.
 */
public final class SummaryJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SummaryJson() {
    }

    /** The summary of a finished run. */
    public static ObjectNode build(RunResult r) {
        DriverResult d = r.driver();
        ObjectNode o = JSON.createObjectNode();
        o.put("name", r.experiment().name());
        o.put("throughput", round(d.throughput(), 1));
        o.put("committed", d.total().committed());
        o.put("aborted", d.total().aborted());
        o.put("abortRate", round(d.total().abortRate(), 6));
        o.put("errors", d.total().errors());
        ObjectNode lat = o.putObject("latency");
        putMs(lat, "p50Ms", d.total(), 50);
        putMs(lat, "p95Ms", d.total(), 95);
        putMs(lat, "p99Ms", d.total(), 99);
        ObjectNode types = o.putObject("types");
        d.types().forEach((name, s) -> types.set(name, type(s, d.measuredMicros())));
        ArrayNode tl = o.putArray("timeline");
        for (TimelinePoint p : d.timeline()) {
            tl.addObject().put("tMs", p.tMs()).put("throughput", p.throughput());
        }
        ObjectNode reasons = o.putObject("abortReasons");
        d.abortReasons().forEach(reasons::put);
        o.set("checks", checks(r.checks()));
        o.set("messages", messages(d.messages(), d.total().committed(), !r.experiment().target().isPostgresql()));
        o.set("machine", MachineJson.of(d.machine()));
        o.set("window", window(d.window()));
        o.put("time", r.simulation() == null ? "real" : "virtual");
        o.set("simulation", simulation(r.simulation()));
        epochs(o, r.epochs());
        for (org.tebaldi.core.cc.CounterGroup g : org.tebaldi.core.cc.Mechanisms.counterGroups()) {
            o.set(g.key(), counterGroup(g, r.ccCounters()));
        }
        replication(o, r);
        timestamps(o, d.messages(), r.ccCounters(), d.total().committed(), !r.experiment().target().isPostgresql());
        o.set("config", ResolvedConfig.toJson(r.experiment()));
        shifts(o, r.experiment().workload().shifts());
        ObjectNode run = o.putObject("run");
        run.put("measuredMs", d.measuredMicros() / 1000);
        run.put("threads", r.threads());
        run.put("rowsLoaded", r.rows());
        run.put("loadMs", r.loadMillis());
        run.put("inFlightAtEnd", d.inFlightAtEnd());
        ArrayNode errs = run.putArray("errorSamples");
        d.errorSamples().forEach(errs::add);
        return o;
    }

    /**
     * {@code shifts[{phase, atMs, firstMs, changes}]}: the workload's shifts ({@code workload.shift}), each with when
     * it was due and when the first transaction under it was drawn (ms since the clients started, as the timeline's
     * {@code tMs}; -1 if no client drew under it), and the options it changed; an empty list without shifts.
     */
    private static void shifts(ObjectNode o, org.tebaldi.bench.workload.Shifts s) {
        ArrayNode a = o.putArray("shifts");
        for (org.tebaldi.bench.workload.Shifts.Happened h : s.happened()) {
            ObjectNode x = a.addObject().put("phase", h.phase()).put("atMs", h.atMs()).put("firstMs", h.firstMs());
            x.set("changes", JSON.valueToTree(h.changes()));
        }
    }

    /**
     * Epoch-based commit ({@code cluster.commit: epoch}): {@code epochs} (committed epochs of the whole run),
     * {@code epochCommitLatencyMs} (mean, prepare to commit decision), {@code epochsAborted}, {@code epochHeldMs}
     * (mean time a transaction waited for its epoch's commit after its decision); all null under 2PC or when not
     * measured (process mode: the service runs in its own process).
     */
    private static void epochs(ObjectNode o, org.tebaldi.bench.run.EpochStats e) {
        if (e == null) {
            o.putNull("epochs");
            o.putNull("epochCommitLatencyMs");
            o.putNull("epochsAborted");
            o.putNull("epochHeldMs");
            return;
        }
        o.put("epochs", e.committed());
        o.put("epochCommitLatencyMs", round(e.commitLatencyMicros() / 1000, 3));
        o.put("epochsAborted", e.aborted());
        o.put("epochHeldMs", round(e.heldMicros() / 1000, 3));
    }

    /**
     * A mechanism's labelled counters ({@link org.tebaldi.core.cc.CounterGroup}) over the measured window (the whole
     * run when simulated): its counts and rates by name (a rate null when its denominator is 0); null when no part
     * reported the group or the counters are not measured (process mode). E.g. {@code cache{lookups, hits, served,
     * renewals, renewalFailures, hitRate, servedRate}} for a tree that caches remote reads.
     */
    static com.fasterxml.jackson.databind.JsonNode counterGroup(org.tebaldi.core.cc.CounterGroup g,
                                                                Map<String, Long> counters) {
        if (!g.present(counters)) {
            return JSON.nullNode();
        }
        ObjectNode o = JSON.createObjectNode();
        g.values(counters).forEach(o::put);
        g.rateValues(counters).forEach((k, v) -> {
            if (v == null) {
                o.putNull(k);
            } else {
                o.put(k, v);
            }
        });
        return o;
    }

    /**
     * Primary-backup replication ({@code cluster.replication}): {@code replication} is null without it, else
     * {@code factor}, {@code mode}, {@code shippedRecords}, {@code acknowledgedWrites}, {@code waitedWrites},
     * {@code resent}, {@code promotions} and {@code innerHostWaits} (votes of transactions that released locks before their vote and waited for the
     * backups, {@link org.tebaldi.core.cc.DsTxn#releasedBeforeVote}) (whole run; in process mode summed over the data servers alive at the
     * end), and {@code failovers}: each promotion's {@code partition}, {@code host}, {@code atMillis} (ms after the
     * cluster started), {@code tookMillis} and {@code by} (process mode; empty elsewhere); the counters are null
     * where nothing was measured; {@code reads} ({@code primary} | {@code nearest}) and, measured in this JVM
     * (null in process mode), {@code backupReads} (reads a backup served), {@code backupFallbacks} (reads a backup
     * refused, then served by the primary) and {@code replicaLagMs} (mean time from a write's commit at its primary
     * to its application in a backup's view; null with none).
     */
    private static void replication(ObjectNode o, RunResult r) {
        org.tebaldi.bench.experiment.ClusterSpec cs = r.experiment().cluster();
        if (cs.replicas() <= 1) {
            o.putNull("replication");
            return;
        }
        ObjectNode x = o.putObject("replication");
        x.put("factor", cs.replicas());
        x.put("mode", cs.replicationMode().name().toLowerCase());
        x.put("reads", cs.replicaReads().name().toLowerCase());
        org.tebaldi.bench.run.ReplicationStats s = r.replication();
        if (s == null) {
            x.putNull("shippedRecords");
            x.putNull("acknowledgedWrites");
            x.putNull("waitedWrites");
            x.putNull("resent");
            x.putNull("promotions");
            x.putNull("innerHostWaits");
            x.putNull("failovers");
            x.putNull("backupReads");
            x.putNull("backupFallbacks");
            x.putNull("replicaLagMs");
        } else {
            x.put("shippedRecords", s.shippedRecords());
            x.put("acknowledgedWrites", s.acknowledgedWrites());
            x.put("waitedWrites", s.waitedWrites());
            x.put("resent", s.resent());
            x.put("promotions", s.promotions());
            x.put("backupReads", s.backupReads());
            x.put("backupFallbacks", s.backupFallbacks());
            if (Double.isNaN(s.replicaLagMs())) {
                x.putNull("replicaLagMs");
            } else {
                x.put("replicaLagMs", s.replicaLagMs());
            }
            x.put("innerHostWaits", s.innerHostWaits());
            com.fasterxml.jackson.databind.node.ArrayNode f = x.putArray("failovers");
            for (org.tebaldi.bench.run.ReplicationStats.Failover v : s.failovers()) {
                ObjectNode e = f.addObject();
                e.put("partition", v.partition());
                e.put("host", v.host());
                e.put("atMillis", v.atMillis());
                e.put("tookMillis", v.tookMillis());
                e.put("by", v.by());
            }
        }
    }

    /**
     * Timestamp schemes (docs/trees.md): {@code tsMessagesPerTxn} — messages to and from the central timestamp service
     * (every {@link org.tebaldi.core.service.TsMessages} kind, requests and replies) per committed transaction, 0 under
     * DST; {@code roVisibilityLagMs} — mean lag of DST snapshot reads behind their data server's clock, null with no
     * snapshot read; {@code roBlockedReads} — DST snapshot reads that waited for a prepared writer (both from the
     * run's CC counters, {@link org.tebaldi.core.cc.ts.SnapshotStats}: the measured window, or the whole run where
     * the run keeps no window, as the other CC counters). Null on PostgreSQL.
     */
    private static void timestamps(ObjectNode o, Map<String, Long> counts, Map<String, Long> cc, long committed,
                                   boolean counted) {
        if (!counted) {
            o.putNull("tsMessagesPerTxn");
            o.putNull("roVisibilityLagMs");
            o.putNull("roBlockedReads");
            return;
        }
        java.util.Set<String> kinds = new java.util.HashSet<>();
        for (Class<?> c : org.tebaldi.core.service.TsMessages.class.getDeclaredClasses()) {
            kinds.add(c.getSimpleName());
        }
        long ts = 0;
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            String k = e.getKey();
            if (kinds.contains(k.substring(k.lastIndexOf('/') + 1))) {
                ts += e.getValue();
            }
        }
        putRatio(o, "tsMessagesPerTxn", ts, committed);
        Map<String, Long> ro = cc == null ? Map.of() : cc;
        double lag = org.tebaldi.core.cc.ts.SnapshotStats.meanLagMs(ro);
        if (Double.isNaN(lag)) {
            o.putNull("roVisibilityLagMs");
        } else {
            o.put("roVisibilityLagMs", round(lag, 3));
        }
        o.put("roBlockedReads", ro.getOrDefault(org.tebaldi.core.cc.ts.SnapshotStats.BLOCKED, 0L));
    }

    private static com.fasterxml.jackson.databind.JsonNode simulation(org.tebaldi.bench.run.SimulationInfo s) {
        if (s == null) {
            return JSON.nullNode();
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("machines", s.machines());
        o.put("coresPerMachine", s.coresPerMachine());
        o.put("costs", s.costs());
        o.put("costMode", s.costMode());
        o.put("virtualMs", s.virtualMillis());
        o.put("wallMs", s.wallMillis());
        o.put("wallPerVirtualSecond", round(s.wallPerVirtualSecond(), 3));
        if (s.host() != null) {
            o.set("costsHost", JSON.valueToTree(s.host().tableHost()));
            o.set("host", JSON.valueToTree(s.host().here()));
            if (s.host().otherHost() == null) {
                o.putNull("costsOnOtherHost");
            } else {
                o.put("costsOnOtherHost", s.host().otherHost());
            }
            o.put("hostCheck", s.host().line());
        }
        ArrayNode ms = o.putArray("machineUtilization");
        for (int i = 0; i < s.machineUtilization().length; i++) {
            ms.addObject().put("machine", i).put("hosts", s.machineNodes()[i])
                    .put("utilization", round(s.machineUtilization()[i], 4));
        }
        return o;
    }

    /**
     * {@code window}: how warm-up ended and whether the measured window was steady ({@link WindowCheck}):
     * {@code warmupMs} (the warm-up the run had), {@code settled} (true/false for a warm-up that ends when throughput
     * settles, null for a fixed one), {@code steady} (null when the window has fewer than 3 whole seconds),
     * {@code samples} (whole seconds tested), {@code meanTxnPerSec}, {@code slopePctPerSec} (% of the mean per
     * second), {@code slopeP} (the slope's p-value), {@code cv} (coefficient of variation of the one-second samples)
     * — null where not computed — and {@code warning} (why it was not steady; null otherwise).
     */
    private static ObjectNode window(org.tebaldi.bench.driver.WindowCheck w) {
        ObjectNode o = JSON.createObjectNode();
        o.put("warmupMs", w.warmupMs());
        putNullable(o, "settled", w.settled());
        putNullable(o, "steady", w.steady());
        o.put("samples", w.samples());
        putNullable(o, "meanTxnPerSec", w.meanTxnPerSec() == null ? null : round(w.meanTxnPerSec(), 1));
        putNullable(o, "slopePctPerSec", w.slopePctPerSec() == null ? null : round(w.slopePctPerSec(), 3));
        putNullable(o, "slopeP", w.slopeP() == null ? null : round(w.slopeP(), 4));
        putNullable(o, "cv", w.cv() == null ? null : round(w.cv(), 4));
        o.put("warning", w.problem());
        return o;
    }

    private static void putNullable(ObjectNode o, String key, Object v) {
        if (v == null) {
            o.putNull(key);
        } else if (v instanceof Boolean b) {
            o.put(key, b);
        } else {
            o.put(key, (Double) v);
        }
    }

    private static ObjectNode type(TypeStats s, long windowMicros) {
        ObjectNode t = JSON.createObjectNode();
        t.put("throughput", round(s.throughput(windowMicros), 1));
        t.put("abortRate", round(s.abortRate(), 6));
        putMs(t, "p50Ms", s, 50);
        putMs(t, "p99Ms", s, 99);
        t.put("committed", s.committed());
        t.put("aborted", s.aborted());
        t.put("errors", s.errors());
        putMs(t, "p95Ms", s, 95);
        return t;
    }

    private static ObjectNode checks(Checks c) {
        ObjectNode o = JSON.createObjectNode();
        if (c.serializable() == null) {
            o.putNull("serializable");
        } else {
            o.put("serializable", c.serializable());
        }
        if (c.consistent() == null) {
            o.putNull("consistency");
        } else {
            o.put("consistency", c.consistent());
        }
        o.put("serializabilityReport", c.report());
        o.put("consistencyDetail", c.consistency() == null ? null : c.consistency().summary());
        ArrayNode problems = o.putArray("consistencyProblems");
        if (c.consistency() != null) {
            c.consistency().problems().forEach(problems::add);
        }
        return o;
    }

    private static ObjectNode messages(Map<String, Long> counts, long committed, boolean counted) {
        ObjectNode o = JSON.createObjectNode();
        if (!counted) {
            o.putNull("perTxn");
            o.putNull("tcToDsPerPhase");
            return o;
        }
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        putRatio(o, "perTxn", total, committed);
        ObjectNode phase = o.putObject("tcToDsPerPhase");
        // every coordinator-to-data-server execute message: single operations and batches
        putRatio(phase, "execute", counts.getOrDefault(ExecRequest.class.getSimpleName(), 0L)
                + counts.getOrDefault(ExecBatch.class.getSimpleName(), 0L), committed);
        putRatio(phase, "validate", counts.getOrDefault(ValidateRequest.class.getSimpleName(), 0L), committed);
        putRatio(phase, "commit", counts.getOrDefault(CommitRequest.class.getSimpleName(), 0L), committed);
        putRatio(phase, "abort", counts.getOrDefault(AbortRequest.class.getSimpleName(), 0L), committed);
        o.put("total", total);
        o.set("counts", JSON.valueToTree(counts));
        return o;
    }

    private static void putRatio(ObjectNode o, String key, long count, long committed) {
        if (committed == 0) {
            o.putNull(key);
        } else {
            o.put(key, round((double) count / committed, 4));
        }
    }

    private static void putMs(ObjectNode o, String key, TypeStats s, double percentile) {
        Double ms = s.percentileMs(percentile);
        if (ms == null) {
            o.putNull(key);
        } else {
            o.put(key, round(ms, 3));
        }
    }

    static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }
}
