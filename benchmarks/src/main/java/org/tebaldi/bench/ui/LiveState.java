package org.tebaldi.bench.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.tree.CcTree;

/**
 * What the live view shows, as JSON, fed by the run's sampler and the tuning daemon's callbacks and read by the
 * HTTP server: the run's status line, the current CC tree, one sample per second (per-type throughput and abort
 * rate, latency percentiles, per-node CPU), the profiler's latest conflict-edge scores, the reconfigurations and the
 * tuning events. Lists only grow; every item carries its index {@code i}, so that a browser applying a full
 * {@link #snapshot} and then {@link #delta}s can drop what it already has. Thread-safe (one lock; every method is
 * short).
 */
public final class LiveState {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final String name;
    private final String command;
    private final List<String> types;
    private String status = "starting";
    private ObjectNode tree;
    private JsonNode heat = F.nullNode();
    private JsonNode latency = F.arrayNode();
    private final List<ObjectNode> samples = new ArrayList<>();
    private final List<ObjectNode> swaps = new ArrayList<>();
    private final List<ObjectNode> events = new ArrayList<>();

    /** Where a reader got to: the sizes of the three lists at its previous {@link #delta}. */
    public static final class Cursor {
        int samples;
        int swaps;
        int events;
    }

    /**
     * @param name    the experiment's name
     * @param command {@code run} or {@code tune}
     * @param types   the workload's transaction types, in report order
     * @param tree    the tree the run starts with
     */
    public LiveState(String name, String command, List<String> types, CcTree tree) {
        this.name = name;
        this.command = command;
        this.types = List.copyOf(types);
        this.tree = TreeJson.of(tree);
    }

    /** The transaction types, in report order. */
    public List<String> types() {
        return types;
    }

    /** A one-line status, e.g. {@code loading 40%}, {@code measuring}, {@code finished}. */
    public synchronized void status(String s) {
        status = s;
    }

    /** The tree the cluster runs now (after a reconfiguration). */
    public synchronized void tree(CcTree t) {
        tree = TreeJson.of(t);
    }

    /** The current tree as JSON ({@link TreeJson}). */
    public synchronized ObjectNode tree() {
        return tree.deepCopy();
    }

    /** The profiler's latest conflict-edge scores ({@link LiveSampler} builds it). */
    public synchronized void heat(JsonNode h) {
        heat = h;
    }

    /** Latency percentiles per transaction type since the start of the run. */
    public synchronized void latency(JsonNode table) {
        latency = table;
    }

    /** Adds one per-second sample (its index is set here). */
    public synchronized void sample(ObjectNode s) {
        s.put("i", samples.size());
        samples.add(s);
    }

    /** Adds a reconfiguration (its index is set here). */
    public synchronized void swap(ObjectNode s) {
        s.put("i", swaps.size());
        swaps.add(s);
    }

    /** Adds a tuning event: what happened ({@code kind}), when (ms since the run started), one line of text. */
    public synchronized void event(String kind, long tMs, String text) {
        ObjectNode e = F.objectNode();
        e.put("i", events.size());
        e.put("kind", kind);
        e.put("tMs", tMs);
        e.put("text", text);
        events.add(e);
    }

    /** Number of samples so far. */
    public synchronized int sampleCount() {
        return samples.size();
    }

    /** Everything so far. */
    public synchronized ObjectNode snapshot() {
        ObjectNode o = head();
        o.put("name", name);
        o.put("command", command);
        ArrayNode t = o.putArray("types");
        types.forEach(t::add);
        o.set("samples", array(samples, 0));
        o.set("swaps", array(swaps, 0));
        o.set("events", array(events, 0));
        return o;
    }

    /** What changed since {@code c} (the small parts whole, the lists from where {@code c} got to); moves it on. */
    public synchronized ObjectNode delta(Cursor c) {
        ObjectNode o = head();
        o.set("samples", array(samples, c.samples));
        o.set("swaps", array(swaps, c.swaps));
        o.set("events", array(events, c.events));
        c.samples = samples.size();
        c.swaps = swaps.size();
        c.events = events.size();
        return o;
    }

    private ObjectNode head() {
        ObjectNode o = F.objectNode();
        o.put("status", status);
        o.set("tree", tree.deepCopy());
        o.set("heat", heat.deepCopy());
        o.set("latency", latency.deepCopy());
        return o;
    }

    private static ArrayNode array(List<ObjectNode> l, int from) {
        ArrayNode a = F.arrayNode();
        for (int i = from; i < l.size(); i++) {
            a.add(l.get(i));
        }
        return a;
    }
}
