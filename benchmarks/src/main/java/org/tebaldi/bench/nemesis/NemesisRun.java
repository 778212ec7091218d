package org.tebaldi.bench.nemesis;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.bench.driver.TimelinePoint;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.listappend.ListAppendWorkload;
import org.tebaldi.bench.process.NodeLauncher;
import org.tebaldi.bench.process.ProcessExperimentRun;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.core.runtime.NodeId;

/**
 * One nemesis run (docs/reliability.md, "Nemesis"): the list-append workload in process mode with every node in a
 * network namespace of its own on a private bridge ({@link NetFabric}), under a seeded {@link FaultSchedule}
 * carried out by a {@link Nemesis}; then the network is healed, stopped nodes continued and dead ones restarted,
 * the final lists read, and both checkers run — the black-box list-append checker (on what clients saw) and the
 * engine's serializability checker (on the nodes' histories). Writes to {@code out}: {@code schedule.txt},
 * {@code events.log}, {@code history.json} (the clients' observed transactions and final reads),
 * {@code verdict.json} and {@code nodes/*.log}.
 *
 * @param seed          fixes the schedule (and the workload's clients)
 * @param seconds       the workload's length, s
 * @param replicas      replication factor (1: off)
 * @param fencing       {@code replication.fencing: lease} (true) or {@code off}
 * @param tree          the CC tree, as the experiment's {@code tree} value (inline YAML or a file path)
 * @param sessionMillis the nodes' ZooKeeper session timeout, ms
 * @param out           the results directory
 */
public record NemesisRun(long seed, int seconds, int replicas, boolean fencing, String tree, int sessionMillis,
                         Path out) {
    /** The default tree: 2PL (wait-die, 10 ms lock timeout) over every list-append type. */
    public static final String TREE_2PL = "{root: {cc: 2pl, options: {lockTimeout: 10ms, deadlock: wait-die}, "
            + "txns: [t_a, t_b, t_c, t_ro]}}";

    /** A node's heap in a nemesis run (five or more JVMs share the machine). */
    public static final String NODE_HEAP = "-Xmx256m";

    private static final String YAML = """
            name: nemesis-%d
            workload: {name: list-append, keysPerTable: 40, opsPerTxn: 4, readOnlyShare: 0.2}
            tree: %s
            cluster: {mode: processes, dataServers: 3, coordinators: 2, threads: 1, sessionTimeout: %dms%s}
            clients: 6
            warmup: 500ms
            duration: %ds
            verify: true
            retry: {backoff: 1ms, maxBackoff: 50ms}
            durability: {enabled: true, dir: %s, epoch: 100ms, sync: true}
            seed: %d
            """;

    /**
     * What a run found.
     *
     * @param passed   both checkers passed, nothing failed, and the cluster committed after the last fault healed
     * @param summary  one line
     * @param schedule the faults drawn
     * @param network  the prefix of every namespace, veth and bridge name the run created ({@code tb<tag>})
     */
    public record Verdict(boolean passed, String summary, FaultSchedule schedule, String network) {
    }

    /**
     * Runs it.
     *
     * @throws NetFabric.Unavailable if network namespaces cannot be created here
     * @throws IOException           if the results cannot be written
     */
    public Verdict run(RunListener listener) throws NetFabric.Unavailable, IOException, InterruptedException {
        return run(listener, null);
    }

    /**
     * Runs it under {@code fixed} instead of the seed's schedule (null: the seed's), e.g. one chosen fault.
     *
     * @throws NetFabric.Unavailable if network namespaces cannot be created here
     * @throws IOException           if the results cannot be written
     */
    public Verdict run(RunListener listener, FaultSchedule fixed) throws NetFabric.Unavailable, IOException,
            InterruptedException {
        Files.createDirectories(out);
        String repl = replicas > 1 ? ", replication: {factor: " + replicas + ", mode: sync, fencing: "
                + (fencing ? "lease" : "off") + "}" : "";
        Experiment e = ExperimentLoader.parse(YAML.formatted(seed, tree, sessionMillis, repl, seconds,
                out.resolve("stores"), seed), out.resolve("nemesis.yaml"), List.of(), Path.of("").toAbsolutePath());
        List<NodeId> nodes = nodesOf(e);
        FaultSchedule schedule = fixed != null ? fixed
                : FaultSchedule.draw(seed, seconds * 1000L, nodes, replicas > 1, sessionMillis);
        List<String> lines = new ArrayList<>();
        lines.add("seed " + seed + ", " + seconds + " s, replicas " + replicas + ", fencing " + (fencing ? "lease"
                : "off") + ", session " + sessionMillis + " ms, tree " + tree);
        schedule.faults().forEach(f -> lines.add(f.toString()));
        Files.write(out.resolve("schedule.txt"), lines);
        long t0 = System.nanoTime();
        RunResult result = null;
        String failure = null;
        Nemesis nemesis;
        String network;
        try (NetFabric net = NetFabric.create()) {
            network = "tb" + net.tag();
            List<String> cmd = new ArrayList<>(NodeLauncher.command());
            cmd.add(1, NODE_HEAP);
            ProcessExperimentRun[] run = new ProcessExperimentRun[1];
            nemesis = new Nemesis(schedule, net, () -> run[0].cluster());
            Nemesis n = nemesis;
            run[0] = new ProcessExperimentRun(e, listener, out.resolve("nodes"), null, cmd, new RunExtension() {
                @Override
                public void started(LiveRun live) {
                    n.start();
                }

                @Override
                public void stopped() throws InterruptedException {
                    n.finish(); // heal and restart before the final reads and the checks
                }
            }).onNetwork(net);
            try {
                result = run[0].run();
            } catch (RunFailedException x) {
                failure = x.getMessage();
            } finally {
                nemesis.finish();
            }
        }
        Files.write(out.resolve("events.log"), nemesis.events());
        ListAppendWorkload w = (ListAppendWorkload) e.workload();
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        json.writeValue(out.resolve("history.json").toFile(), w.recorder().history());
        return verdict(json, schedule, result, failure, nemesis, (System.nanoTime() - t0) / 1_000_000, network);
    }

    private Verdict verdict(ObjectMapper json, FaultSchedule schedule, RunResult result, String failure,
                            Nemesis nemesis, long millis, String network) throws IOException {
        ObjectNode v = json.createObjectNode();
        v.put("seed", seed);
        v.put("seconds", seconds);
        v.put("replicas", replicas);
        v.put("fencing", fencing ? "lease" : "off");
        v.put("tree", tree);
        v.put("faults", schedule.faults().size());
        v.put("millis", millis);
        boolean passed = failure == null && nemesis.errors().isEmpty();
        String summary;
        if (result == null) {
            summary = "run failed: " + failure;
        } else {
            var c = result.checks();
            long committed = result.driver().total().committed();
            boolean live = liveAtEnd(result.driver().timeline());
            passed &= c.passed() && live;
            v.put("committed", committed);
            v.put("aborted", result.driver().total().aborted());
            v.put("serializable", c.serializable());
            v.put("serializability", c.report());
            v.put("listAppendConsistent", c.consistent());
            v.put("listAppend", c.consistency() == null ? null : c.consistency().summary());
            v.set("problems", json.valueToTree(c.consistency() == null ? List.of() : c.consistency().problems()));
            v.put("liveAfterHealing", live);
            v.set("timeline", json.valueToTree(result.driver().timeline()));
            if (result.replication() != null) {
                v.set("promotions", json.valueToTree(result.replication().failovers()));
            }
            summary = (passed ? "PASSED" : "FAILED") + ": " + committed + " committed, serializable "
                    + c.serializable() + ", list-append " + (c.consistency() == null ? "not checked"
                    : c.consistency().summary()) + (live ? "" : ", NOT live after healing");
        }
        v.set("nemesisErrors", json.valueToTree(nemesis.errors()));
        v.put("passed", passed);
        v.put("summary", summary);
        json.writeValue(out.resolve("verdict.json").toFile(), v);
        return new Verdict(passed, summary, schedule, network);
    }

    /**
     * Whether the last 3 s of the run's timeline committed something (the schedule leaves the last 40% of the run,
     * at least 12 s, free of faults for restarts and recovery).
     */
    private static boolean liveAtEnd(List<TimelinePoint> timeline) {
        if (timeline.isEmpty()) {
            return false;
        }
        long last = timeline.get(timeline.size() - 1).tMs();
        return timeline.stream().anyMatch(p -> p.tMs() >= last - 3_000 && p.throughput() > 0);
    }

    /** The data servers and coordinators: the nodes faults target. */
    private static List<NodeId> nodesOf(Experiment e) {
        List<NodeId> n = new ArrayList<>();
        for (int i = 0; i < e.cluster().dataServers(); i++) {
            n.add(NodeId.ds(i));
        }
        for (int i = 0; i < e.cluster().coordinators(); i++) {
            n.add(NodeId.tc(i));
        }
        return n;
    }
}
