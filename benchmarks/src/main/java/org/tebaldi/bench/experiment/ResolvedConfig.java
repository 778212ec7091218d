package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.tebaldi.core.config.Durations;
import org.tebaldi.core.tree.TreeLoader;

/**
 * The fully resolved experiment as JSON, for {@code summary.json}'s {@code config} (docs/experiments.md, "summary.json"): every key of the
 * experiment format with defaults and overrides applied, durations written back as text ({@code 50us},
 * {@code 5s}; {@code warmup} as written: a duration, or {@code {min, max}}); {@code tree} is the tree file's
 * path or the inline mapping, plus {@code treeYaml}, the tree as loaded in the tree file format with
 * {@code treeOptions} applied (both null/absent for a PostgreSQL run without a tree), {@code file}, the experiment
 * file, {@code profile} (the profile applied, or {@code none}; its keys appear under their own names),
 * {@code treeOptions}, {@code storage}, {@code profiler}, {@code autoconf}, {@code target} and the
 * {@code postgresql} section with the password masked.
 */
public final class ResolvedConfig {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResolvedConfig() {
    }

    /** The experiment as a JSON object in experiment-file key order. */
    public static ObjectNode toJson(Experiment e) {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", e.name());
        o.put("file", e.file().toString());
        o.set("workload", JSON.valueToTree(e.workloadOptions()));
        if (e.treeRef() == null) {
            o.putNull("tree");
        } else if (e.treeRef().file() != null) {
            o.put("tree", e.treeRef().file().toString());
        } else {
            o.set("tree", e.treeRef().inline().deepCopy());
        }
        if (e.tree() != null) {
            o.put("treeYaml", TreeLoader.toYaml(e.tree().tree()));
        }
        o.put("profile", e.profile() == null ? Profiles.NONE : e.profile());
        o.set("treeOptions", JSON.valueToTree(e.treeOptions()));
        ObjectNode c = o.putObject("cluster");
        c.put("mode", e.cluster().mode());
        c.put("transport", e.cluster().transport());
        c.put("dataServers", e.cluster().dataServers());
        c.put("coordinators", e.cluster().coordinators());
        c.put("networkDelay", Durations.format(e.cluster().networkDelayMicros()));
        c.put("threads", e.cluster().threads());
        c.put("batching", e.cluster().batching());
        c.put("commit", e.cluster().commit().yaml());
        if (e.cluster().commit() == org.tebaldi.server.node.CommitProtocol.EPOCH) {
            c.put("epoch", Durations.format(e.cluster().epochMicros()));
        }
        if (e.cluster().replicas() > 1) {
            var r = c.putObject("replication");
            r.put("factor", e.cluster().replicas());
            r.put("mode", e.cluster().replicationMode().name().toLowerCase());
            r.put("failover", e.cluster().autoFailover() ? "auto" : "manual");
            r.put("fencing", e.cluster().fencing() ? "lease" : "off");
            r.put("reads", e.cluster().replicaReads().name().toLowerCase());
        }
        if (e.cluster().mode().equals("processes")) {
            c.put("bind", e.cluster().bind());
            c.put("sessionTimeout", Durations.format(e.cluster().sessionTimeoutMillis() * 1000));
            c.put("tls", e.cluster().tls());
        }
        SimulationSpec sim = e.cluster().simulation();
        if (sim != null) {
            ObjectNode m = c.putObject("simulation");
            m.put("machines", sim.machines());
            m.put("coresPerMachine", sim.coresPerMachine());
            ObjectNode lat = m.putObject("latency");
            lat.put("min", Durations.format(sim.latencyMinMicros()));
            lat.put("max", Durations.format(sim.latencyMaxMicros()));
            m.put("localLatency", Durations.format(sim.localLatencyMicros()));
            m.put("bandwidthGbps", sim.bandwidthGbps());
            m.put("costs", sim.costsFile().toString());
            m.put("costMode", sim.costMode());
            m.put("serviceMachine", sim.serviceMachine());
            if (sim.groups() > 1) {
                m.put("groups", sim.groups());
                ObjectNode apart = m.putObject("groupLatency");
                apart.put("min", Durations.format(sim.groupLatencyMinMicros()));
                apart.put("max", Durations.format(sim.groupLatencyMaxMicros()));
            }
            if (sim.tsOpsPerSecond() > 0) {
                m.put("tsOpsPerSecond", sim.tsOpsPerSecond());
            }
        }
        o.put("clients", e.clients());
        if (e.warmup().settles()) {
            o.putObject("warmup").put("min", Durations.format(e.warmup().minMicros()))
                    .put("max", Durations.format(e.warmup().maxMicros()));
        } else {
            o.put("warmup", Durations.format(e.warmup().minMicros()));
        }
        o.put("duration", Durations.format(e.durationMicros()));
        o.put("verify", e.verification().key());
        ObjectNode r = o.putObject("retry");
        r.put("backoff", Durations.format(e.retry().backoffMicros()));
        r.put("maxBackoff", Durations.format(e.retry().maxBackoffMicros()));
        ObjectNode by = r.putObject("byMechanism");
        e.retry().byMechanismMicros().forEach((m, us) -> by.put(m, Durations.format(us)));
        o.put("seed", e.seed());
        o.put("output", e.output());
        ObjectNode d = o.putObject("durability");
        d.put("enabled", e.durability().enabled());
        if (e.durability().dir() != null) {
            d.put("dir", e.durability().dir());
        }
        d.put("epoch", Durations.format(e.durability().epochMicros()));
        d.put("sync", e.durability().sync());
        d.put("writeLatency", Durations.format(e.durability().writeLatencyMicros()));
        d.put("store", e.durability().store());
        ObjectNode st = o.putObject("storage");
        st.put("rows", e.storage().offHeap() ? "offheap" : "heap");
        st.put("memory", e.storage().memoryText());
        if (e.storage().dir() != null) {
            st.put("dir", e.storage().dir());
        }
        ObjectNode p = o.putObject("profiler");
        p.put("enabled", e.profiler().enabled());
        p.put("window", Durations.format(e.profiler().windowMicros()));
        p.put("flush", Durations.format(e.profiler().flushMicros()));
        AutoconfSpec a = e.autoconf();
        ObjectNode ac = o.putObject("autoconf");
        ac.set("mechanisms", JSON.valueToTree(a.mechanisms()));
        ac.put("analysis", Durations.format(a.analysisMicros()));
        ac.put("measure", Durations.format(a.measureMicros()));
        ac.put("settle", Durations.format(a.settleMicros()));
        ac.put("settleWindow", Durations.format(a.settleWindowMicros()));
        ac.put("rounds", a.rounds());
        ac.put("maxRounds", a.maxRounds());
        ac.put("confidence", a.confidence());
        ac.put("maxIterations", a.maxIterations());
        ac.put("maxCandidates", a.maxCandidates());
        ac.put("edgesPerIteration", a.edgesPerIteration());
        ac.put("minGain", a.minGain());
        ac.put("minScore", a.minScore());
        ac.put("protocol", a.protocol());
        ac.put("forceAbort", Durations.format(a.forceAbortMicros()));
        ac.put("final", Durations.format(a.finalMicros()));
        ac.put("daemon", a.daemon());
        ac.put("drift", a.drift());
        o.put("target", e.target().kind());
        o.set("postgresql", postgresql(e.target().postgresql()));
        return o;
    }

    /** The postgresql section; the password is never written (replaced by {@code "***"}). */
    private static ObjectNode postgresql(PostgresSpec p) {
        ObjectNode o = JSON.createObjectNode();
        o.put("url", p.url());
        o.put("user", p.user());
        if (p.password() != null) {
            o.put("password", "***");
        }
        o.put("schema", p.schema());
        if (p.local()) {
            o.put("binDir", p.binDir());
            o.put("fsync", p.fsync());
            o.set("settings", JSON.valueToTree(p.settings()));
        }
        return o;
    }
}
